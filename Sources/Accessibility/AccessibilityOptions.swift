/// The heuristics' thresholds. Defaults are the paper's numbers where it gives one (§5.5) and
/// our choice, said so, where it does not.
public struct AccessibilityOptions: Equatable, Sendable {
    /// Tab grouping: a tab-bar item lies in this bottom fraction of the screen (§5.5: 20%).
    public var tabBarBottomFraction = 0.2
    /// Tab grouping: `B.bottom − D.top` at most this fraction of the screen height (§5.5: 0.08).
    public var tabBarReach = 0.08
    /// Our choice: fewer tab buttons than this is not a tab bar. The paper sets no minimum, but
    /// a list row or footer at the bottom (a Text and a chevron Icon) then becomes "tab 1 of
    /// 2": on the 51 iPhone val/test screens of vins-ui with the vins-baseline model, 6 of the
    /// 7 two-button "tab bars" were such rows, while the real bars had 4–5 tabs.
    public var minimumTabs = 3
    /// Picture subtitles: the Text overlaps this much of the narrower width in x (§5.5: 50%;
    /// the paper does not say of which box — the narrower one lets a short caption under a wide
    /// picture and a wide caption under a thumbnail both qualify).
    public var subtitleXOverlap = 0.5
    /// Picture subtitles: gap to the picture below this fraction of the screen height (§5.5: 0.03).
    public var subtitleGap = 0.03
    /// Our choice: an element counts as inside a Container or Segmented Control when this much
    /// of its area is (detections are not pixel-tight; exact containment misses many).
    public var insideFraction = 0.9
    /// Our choice: a Container covering more than this fraction of the screen is not grouped
    /// (it would collapse most of the screen into one stop; Fig. 7 right shows such a
    /// detection as one to remove). It stays an element of its own.
    public var maximumContainerFraction = 0.5
    /// Our choice: XY-cut may cut through boxes overlapping by up to this fraction of the
    /// screen height (and a quarter of the smaller box), since detections are not pixel-tight
    /// (`XYCut.split`). 0 is the paper's rule.
    public var cutSlack = 0.01
    /// XY-cut recursion depth after which a segment is ordered top-to-bottom, left-to-right
    /// as if it could not be cut: bounds the work on pathological layouts.
    public var maximumCutDepth = 48

    public init() {}
}
