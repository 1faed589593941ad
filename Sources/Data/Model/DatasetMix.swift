import Foundation

/// Training on two datasets at once: a dataset's screens plus another source's training screens
/// (e.g. vins-ui with synthetic screens, which alone have checkboxes, sliders, segmented controls
/// and stateful toggles). The classes are the union, and each screen records the classes its
/// source never marks, so that a real screen is not taken as proof that a slider is absent and
/// a synthetic screen not as proof that there is no stateless toggle (`Sample.unlabeledClasses`;
/// the detection loss leaves those classes alone on that screen).
public enum DatasetMix {
    /// What joining two datasets did, for the run's log.
    public struct Summary: Equatable, Sendable {
        /// Classes with no box in the primary's training split (unlabeled on its screens).
        public var unlabeledInPrimary: [String]
        /// Classes with no box in the added training screens (unlabeled on those).
        public var unlabeledInAdded: [String]
        public var addedScreens: Int
    }

    /// `primary` with `added`'s `addedSplit` screens appended to its `trainSplit`; its other
    /// splits (validation, test) are untouched, so reports stay comparable with runs on
    /// `primary` alone. Classes: `primary`'s in its order, then `added`'s that it lacks. A
    /// class counts as unlabeled in a source when that source's training screens hold no box
    /// of it. Added samples get ids and groups under `addedName/` and absolute image paths.
    public static func combine(_ primary: Dataset, trainSplit: String, adding added: Dataset, split addedSplit: String,
                               addedName: String) throws -> (dataset: Dataset, summary: Summary) {
        guard let primaryTrain = primary.splits[trainSplit] else {
            throw DatasetError.unknownSplit(trainSplit, available: primary.splits.keys.sorted())
        }
        guard let addedIndices = added.splits[addedSplit] else {
            throw DatasetError.unknownSplit(addedSplit, available: added.splits.keys.sorted())
        }
        var classes = primary.classes
        for name in added.classes where !classes.contains(name) { classes.append(name) }
        let remap = added.classes.map { classes.firstIndex(of: $0)! }

        func boxedClasses(_ samples: [Sample], mapping: (Int) -> Int) -> Set<Int> {
            Set(samples.flatMap { $0.annotations.map { mapping($0.classIndex) } })
        }
        let primaryBoxed = boxedClasses(primaryTrain.map { primary.samples[$0] }, mapping: { $0 })
        let addedBoxed = boxedClasses(addedIndices.map { added.samples[$0] }, mapping: { remap[$0] })
        let primaryUnlabeled = classes.indices.filter { !primaryBoxed.contains($0) }
        let addedUnlabeled = classes.indices.filter { !addedBoxed.contains($0) }

        var result = primary
        result.classes = classes
        result.cocoCategoryIDs = nil  // the union has classes no COCO file of the primary names
        for index in result.samples.indices { result.samples[index].unlabeledClasses = primaryUnlabeled }
        var appended: [Int] = []
        for index in addedIndices {
            var sample = added.samples[index]
            sample.id = "\(addedName)/\(sample.id)"
            sample.imagePath = added.imageURL(of: sample).path
            sample.group = sample.group.map { "\(addedName)/\($0)" }
            sample.cocoImageID = nil
            sample.annotations = sample.annotations.map { var a = $0; a.classIndex = remap[a.classIndex]; return a }
            sample.unlabeledClasses = addedUnlabeled
            appended.append(result.samples.count)
            result.samples.append(sample)
        }
        result.splits[trainSplit] = primaryTrain + appended
        result.notes += ["\(appended.count) training screens of \(addedName) added"]
        let summary = Summary(unlabeledInPrimary: primaryUnlabeled.map { classes[$0] },
                              unlabeledInAdded: addedUnlabeled.map { classes[$0] }, addedScreens: appended.count)
        return (result, summary)
    }
}
