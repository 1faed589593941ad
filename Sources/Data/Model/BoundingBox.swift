import Imaging

/// The labels' box is Imaging's: one type from the files through augmentation, the letterbox
/// and the detector's outputs (files that import only Data keep the name).
public typealias BoundingBox = Imaging.BoundingBox
