import Foundation

/// A detector and experiment small enough for debug-build tests: 64×128 input, width 0.25,
/// 16 FPN channels, 24 synthetic screens (rendered once per test process into a shared cache).
/// The files only; each test target that trains adds its own trainer options.
public enum TinyExperimentFiles {
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static var cache: URL { TestFolders.root.appendingPathComponent("synthetic-cache") }

    /// A fresh folder holding `model.yaml` and `NAME.yaml`; returns the experiment file.
    public static func write(name: String = "tiny", extra: String = "", head: String = "anchor-free") throws -> URL {
        let folder = try TestFolders.make("training")
        let model = """
        architecture:
          name: ui-detector
          options: {head: \(head), width_multiplier: 0.25, fpn_channels: 16, head_convolutions: 1, distribution_bins: 8}
        input: {width: 64, height: 128}
        normalization: {mean: [0.5, 0.5, 0.5], std: [0.25, 0.25, 0.25]}
        """
        try model.write(to: folder.appendingPathComponent("model.yaml"), atomically: true, encoding: .utf8)
        let experiment = """
        data:
          synthetic: {count: 24, seed: 5, screens_per_app: 3, val_fraction: 0.2, test_fraction: 0.2}
        model: \(folder.appendingPathComponent("model.yaml").path)
        augment: \(repositoryRoot.appendingPathComponent("Configs/augment/default.yaml").path)
        epochs: 2
        batch_size: 4
        threads: 2
        workers: 1
        assigner: {static_epochs: 1}
        preview_images: 2
        \(extra)
        """
        let file = folder.appendingPathComponent("\(name).yaml")
        try experiment.write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}
