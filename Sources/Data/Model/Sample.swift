/// One screenshot and its boxes.
public struct Sample: Equatable, Hashable, Codable {
    /// Stable identifier: the image path under `images/` without extension (`train/a` for
    /// `images/train/a.png`; the file name for a flat folder), for YOLO and COCO alike.
    public var id: String
    /// Path to the image; relative paths are resolved against the dataset root.
    public var imagePath: String
    public var width: Int
    public var height: Int
    public var annotations: [Annotation]
    /// The app the screen comes from, when known; app-level splits keep a group in one split.
    public var group: String?
    /// The image's id in a COCO annotation file, kept so predictions can refer to it.
    public var cocoImageID: Int?
    /// The screen-reader elements a person expects, in the order they read them: each element
    /// the indices into `annotations` it presents as one stop (a list row's Container with its
    /// contents, a tab's icon and title). Synthetic screens know it (`TrueElements.swift`);
    /// YOLO folders keep it in `accessibility.jsonl` (`AccessibilityElementsFile`).
    public var accessibilityElements: [[Int]]?
    /// Facts about the screen from the dataset's manifest (`manifest.tsv`'s other columns, e.g.
    /// vins-ui's `source`: vins_iphone, vins_android, vins_rico); nil when it has none.
    public var metadata: [String: String]?
    /// Classes whose elements this screen does not mark because its source annotates none of
    /// them (a screen of one dataset trained beside another's, `DatasetMix`): a detector learns
    /// nothing about them here, neither where they are nor that they are absent. nil: every
    /// class is marked where it appears.
    public var unlabeledClasses: [Int]?

    public init(id: String, imagePath: String, width: Int, height: Int, annotations: [Annotation] = [], group: String? = nil,
                cocoImageID: Int? = nil, accessibilityElements: [[Int]]? = nil, metadata: [String: String]? = nil) {
        self.metadata = metadata
        self.id = id
        self.imagePath = imagePath
        self.width = width
        self.height = height
        self.annotations = annotations
        self.group = group
        self.cocoImageID = cocoImageID
        self.accessibilityElements = accessibilityElements
    }
}
