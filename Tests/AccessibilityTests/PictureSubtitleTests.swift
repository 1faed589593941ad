import XCTest
@testable import Accessibility

final class PictureSubtitleTests: XCTestCase {
    // On a 400×800 screen the subtitle gap must be under 0.03·800 = 24.
    // Rule 3 counts the second line too: T1 must be nearer the picture than T2 is to T1.
    // (Lines nearer each other than their height were joined by text grouping before.)
    func testATextJustUnderAPictureAndItsSecondLineJoinThePicture() {
        let screen = [
            detection("Picture", 20, 100, 160, 120),  // 0
            detection("Text", 30, 224, 100, 16),       // 1: gap 4
            detection("Text", 30, 250, 60, 14),        // 2: gap 10 under 1
            detection("Text", 30, 280, 60, 14),        // 3: gap 16 under 2: a third line is not taken
        ]
        let result = PictureSubtitle.apply(singles(screen), screen: phone)
        XCTAssertEqual(memberSets(result), [[0, 1, 2], [3]])
        XCTAssertEqual(result[0].kind, "Picture")
        XCTAssertEqual(result[0].grouping, .pictureSubtitle)
    }

    func testTooFarTooNarrowAnOverlapAndTextAbove() {
        let picture = detection("Picture", 100, 100, 100, 100)
        XCTAssertEqual(memberSets(PictureSubtitle.apply(singles([picture, detection("Text", 100, 225, 100, 16)]), screen: phone)), [[0], [1]], "gap 25 ≥ 24")
        XCTAssertEqual(memberSets(PictureSubtitle.apply(singles([picture, detection("Text", 160, 205, 100, 16)]), screen: phone)), [[0], [1]], "x-overlap 40 of 100")
        XCTAssertEqual(memberSets(PictureSubtitle.apply(singles([picture, detection("Text", 150, 205, 100, 16)]), screen: phone)), [[0, 1]], "x-overlap 50 of 100")
        XCTAssertEqual(memberSets(PictureSubtitle.apply(singles([picture, detection("Text", 100, 80, 100, 16)]), screen: phone)), [[0], [1]], "above")
        // A thumbnail under a wide caption: half of the narrower (the picture) overlaps.
        let thumbnail = [detection("Picture", 10, 10, 40, 40), detection("Text", 0, 55, 300, 16)]
        XCTAssertEqual(memberSets(PictureSubtitle.apply(singles(thumbnail), screen: phone)), [[0, 1]])
    }

    func testATextCloserToWhatIsBelowItIsNotASubtitle() {
        let screen = [
            detection("Picture", 0, 0, 200, 100),
            detection("Text", 0, 115, 200, 16),        // 15 under the picture
            detection("Text Field", 0, 140, 200, 30),  // 9 under the text: the text labels the field
        ]
        XCTAssertEqual(memberSets(PictureSubtitle.apply(singles(screen), screen: phone)), [[0], [1], [2]])
        // Something below but off to the side does not count.
        let aside = [screen[0], screen[1], detection("Text Field", 250, 140, 100, 30)]
        XCTAssertEqual(memberSets(PictureSubtitle.apply(singles(aside), screen: phone)), [[0, 1], [2]])
    }

    func testATextUnderTwoPicturesGoesToTheNearerAndEachPictureTakesOneSubtitle() {
        let screen = [
            detection("Picture", 0, 0, 100, 100),      // 0
            detection("Picture", 0, 0, 100, 105),      // 1: its bottom is nearer the text
            detection("Text", 0, 110, 100, 16),        // 2
        ]
        XCTAssertEqual(memberSets(PictureSubtitle.apply(singles(screen), screen: phone)), [[0], [1, 2]])
        // A grid of two pictures, each with its own title.
        let grid = [detection("Picture", 0, 0, 100, 100), detection("Picture", 120, 0, 100, 100),
                    detection("Text", 0, 105, 100, 16), detection("Text", 120, 105, 100, 16)]
        XCTAssertEqual(memberSets(PictureSubtitle.apply(singles(grid), screen: phone)), [[0, 2], [1, 3]])
    }

    /// An alert's button just under the picture the alert covers is not the picture's caption;
    /// a picture on the alert still takes the alert's text under it.
    func testATextOnADialogIsNotTheSubtitleOfAPictureBehindIt() {
        let screen = [
            detection("Picture", 40, 100, 320, 300),   // 0: behind the alert
            detection("Dialog", 70, 300, 260, 200),    // 1: over the picture's lower part
            detection("Text", 260, 405, 60, 20),       // 2: the alert's "Retry", 5 under the picture
            detection("Picture", 170, 320, 60, 60),    // 3: the alert's own image
            detection("Text", 150, 385, 100, 16),      // 4: its caption on the alert (gap 5)
        ]
        XCTAssertEqual(memberSets(PictureSubtitle.apply(singles(screen), screen: phone)), [[0], [1], [2], [3, 4]])
        let noAlert = screen.enumerated().filter { $0.offset == 0 || $0.offset == 2 }.map(\.element)
        XCTAssertEqual(memberSets(PictureSubtitle.apply(singles(noAlert), screen: phone)), [[0, 1]], "the same text with no alert is a caption")
    }
}
