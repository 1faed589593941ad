import Augment
import Data
import Foundation
import Imaging

/// The training split as the loader reads it, except that an image that cannot be read (a
/// corrupt or vanished file found mid-run) becomes a grey screen without boxes instead of
/// stopping a long run. Every such file is recorded once, for a warning and `summary.json`.
/// The substitute is the same every time, so runs stay deterministic.
final class TolerantSource: SampleSource, @unchecked Sendable {
    let base: DatasetSource
    private let lock = NSLock()
    /// In the order found; a file appears once.
    private var failures: [(file: String, reason: String)] = []
    private var reported = 0

    init(_ base: DatasetSource) { self.base = base }

    var count: Int { base.count }
    func annotations(at position: Int) -> [Annotation] { base.annotations(at: position) }
    func sampleIndex(at position: Int) -> Int { base.sampleIndex(at: position) }

    func load(_ position: Int) throws -> AnnotatedImage {
        do {
            return try base.load(position)
        } catch {
            let sample = base.dataset.samples[base.sampleIndex(at: position)]
            let file = base.dataset.imageURL(of: sample).path
            lock.lock()
            if !failures.contains(where: { $0.file == file }) { failures.append((file, "\(error)")) }
            lock.unlock()
            let grey = RGBImage(width: max(1, sample.width), height: max(1, sample.height), fill: RGB(114, 114, 114))
            return AnnotatedImage(image: grey, annotations: [])
        }
    }

    /// Files that failed since the last call, with the reason (for a warning each).
    func newFailures() -> [(file: String, reason: String)] {
        lock.lock(); defer { lock.unlock() }
        let new = Array(failures[reported...])
        reported = failures.count
        return new
    }

    var allFailures: [String] {
        lock.lock(); defer { lock.unlock() }
        return failures.map(\.file)
    }
}
