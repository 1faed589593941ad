import Foundation
import TestSupport
import Weights
import XCTest

/// `mpirun -np N screenlab train` as it is used: Open MPI's launcher starting real processes on
/// this machine (`--oversubscribe`, and `--allow-run-as-root` where the tests run as root), each
/// with one engine thread. Skips, saying what to install, without Open MPI.
final class MPITrainingTests: XCTestCase {
    static func mpirun() throws -> URL {
        guard let path = ["/usr/bin/mpirun", "/usr/local/bin/mpirun"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("no mpirun: install Open MPI (sudo apt-get install -y openmpi-bin libopenmpi-dev, as Scripts/install-dependencies does)")
        }
        return URL(fileURLWithPath: path)
    }

    static func launcherArguments(ranks: Int) -> [String] {
        ["-np", "\(ranks)", "--oversubscribe"] + (getuid() == 0 ? ["--allow-run-as-root"] : [])
    }

    /// Trains the tiny experiment with `ranks` processes (0: plain `screenlab train`, no launcher);
    /// returns the run folder.
    static func train(ranks: Int, runs: URL, experiment: URL, _ extra: [String] = [], environment: [String: String] = [:]) throws -> URL {
        let arguments = ["train", experiment.path, "--runs", runs.path, "--no-registry", "--quiet", "--set", "threads=1"] + extra
        let result = ranks == 0
            ? try ScreenlabProcess.run(arguments, environment: environment)
            : try ChildProcess.run(try mpirun(), launcherArguments(ranks: ranks) + [try ScreenlabProcess.binary().path] + arguments, environment: environment)
        XCTAssertEqual(result.status, 0, result.output)
        return try runFolder(in: runs)
    }

    static func runFolder(in runs: URL) throws -> URL {
        let experimentFolders = try FileManager.default.contentsOfDirectory(at: runs, includingPropertiesForKeys: nil)
        let folder = try XCTUnwrap(experimentFolders.first, "no run in \(runs.path)")
        return try XCTUnwrap(try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).first { !$0.lastPathComponent.hasPrefix(".") })
    }

    static func weights(_ run: URL) throws -> [String: [Float]] {
        let file = try WeightsFile.read(contentsOf: run.appendingPathComponent("checkpoints/last/model.slw"))
        return Dictionary(uniqueKeysWithValues: file.tensors.map { ($0.name, $0.tensor.values) })
    }

    static func experiment() throws -> URL {
        try TinyExperimentFiles.write(name: "parallel", extra: "")
    }

    func testSameRankCountTwiceGivesTheSameBitsAndOneRankIsThePlainRun() throws {
        let experiment = try Self.experiment()
        let folder = try TestFolders.make("mpi-repeat")
        let first = try Self.train(ranks: 2, runs: folder.appendingPathComponent("a"), experiment: experiment)
        let second = try Self.train(ranks: 2, runs: folder.appendingPathComponent("b"), experiment: experiment)
        let one = try Self.train(ranks: 1, runs: folder.appendingPathComponent("c"), experiment: experiment)
        let plain = try Self.train(ranks: 0, runs: folder.appendingPathComponent("d"), experiment: experiment)
        let a = try Self.weights(first), b = try Self.weights(second)
        XCTAssertEqual(a.count, b.count)
        for (name, values) in a { XCTAssertEqual(values.map(\.bitPattern), b[name]?.map(\.bitPattern), "\(name): two 2-rank runs differ") }
        let c = try Self.weights(one), d = try Self.weights(plain)
        for (name, values) in c { XCTAssertEqual(values.map(\.bitPattern), d[name]?.map(\.bitPattern), "\(name): 1 rank under mpirun differs from plain train") }
        XCTAssertNotEqual(a["head.outputs.0.weight"], c["head.outputs.0.weight"], "2 ranks and 1 rank added in another order, so some bits differ")
        // Rank 0 alone wrote the run: one run folder, its reports and the metrics of both epochs.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: first.deletingLastPathComponent().path).filter { !$0.hasPrefix(".") }.count, 1)
        let metrics = try String(contentsOf: first.appendingPathComponent("metrics.csv"), encoding: .utf8)
        XCTAssertEqual(metrics.split(separator: "\n").count, 3, metrics)
        XCTAssertTrue(FileManager.default.fileExists(atPath: first.appendingPathComponent("model.slw").path))
    }

    /// N ranks × batch B/N against 1 process × batch B over one epoch. Where no batch norm
    /// normalizes with batch statistics (backbone frozen, a head without convolutions), the ranks
    /// compute the one-process gradient up to the order of additions, so the models agree to float
    /// rounding: measured 2e-6 of the distance training moved them (bound 1e-3). With batch norm
    /// training, each rank normalizes its own B/N images, so the models differ as two batch-norm
    /// batchings do. On this tiny model (2 images a rank, feature maps down to 2×4) that is as large
    /// as the step itself: measured with SGD, 1.4× the distance moved (bound 3), where another seed
    /// lands ~6000× as far. docs/distributed.md says what it means at real batch sizes.
    func testTwoRanksAtHalfTheBatchTrainTheOneProcessModel() throws {
        let experiment = try Self.experiment()
        let folder = try TestFolders.make("mpi-batch")
        let linear = experiment.deletingLastPathComponent().appendingPathComponent("no-batch-statistics.yaml")
        let model = try String(contentsOf: experiment.deletingLastPathComponent().appendingPathComponent("model.yaml"), encoding: .utf8)
        try model.replacingOccurrences(of: "head_convolutions: 1", with: "head_convolutions: 0").write(to: linear, atomically: true, encoding: .utf8)
        func gap(_ settings: [String], _ label: String) throws -> (parallel: Double, seed: Double) {
            let runs = folder.appendingPathComponent(label)
            let epoch = ["--set", "epochs=1"] + settings
            let start = try Self.weights(try Self.train(ranks: 0, runs: runs.appendingPathComponent("start"), experiment: experiment, epoch + ["--set", "optimizer.lr=0"]))
            let one = try Self.weights(try Self.train(ranks: 0, runs: runs.appendingPathComponent("one"), experiment: experiment, epoch))
            let two = try Self.weights(try Self.train(ranks: 2, runs: runs.appendingPathComponent("two"), experiment: experiment, epoch))
            let seed = try Self.weights(try Self.train(ranks: 0, runs: runs.appendingPathComponent("seed"), experiment: experiment, epoch + ["--set", "seed=1"]))
            func distance(_ x: [String: [Float]], _ y: [String: [Float]]) -> Double {
                var sum = 0.0
                for (name, values) in x where !name.hasSuffix("running_mean") && !name.hasSuffix("running_var") {
                    for (u, v) in zip(values, y[name]!) { sum += Double(u - v) * Double(u - v) }
                }
                return sum.squareRoot()
            }
            let moved = distance(one, start)
            XCTAssertGreaterThan(moved, 0, label)
            print("\(label): 2 ranks × 2 images against 1 × 4: \(distance(two, one) / moved) of the distance moved; another seed: \(distance(seed, one) / moved)")
            return (distance(two, one) / moved, distance(seed, one) / moved)
        }
        let exact = try gap(["--set", "model=\(linear.path)", "--set", "freeze=backbone"], "no-batch-statistics")
        XCTAssertLessThan(exact.parallel, 1e-3)
        let sgd = try gap(["--set", "optimizer.name=sgd", "--set", "optimizer.lr=0.01"], "batch-norm")
        XCTAssertLessThan(sgd.parallel, 3)
        XCTAssertLessThan(sgd.parallel * 100, sgd.seed, "the data-parallel model should be far closer than one from another seed")
    }

    /// Mistakes that every rank sees end the whole job with one message naming the rank and
    /// what to do, leave no run folder, and never hang.
    func testAJobThatCannotTrainEndsWithAMessage() throws {
        let experiment = try Self.experiment()
        let folder = try TestFolders.make("mpi-refused")
        let binary = try ScreenlabProcess.binary().path
        let arguments = ["train", experiment.path, "--runs", folder.path, "--no-registry", "--quiet", "--set", "threads=1"]
        let uneven = try ChildProcess.run(try Self.mpirun(), Self.launcherArguments(ranks: 3) + [binary] + arguments)
        XCTAssertNotEqual(uneven.status, 0)
        XCTAssertTrue(uneven.output.contains("batch size 4 cannot be split over 3 processes") && uneven.output.contains("of 3 on"), uneven.output)
        let runs = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("parallel").path)) ?? []
        XCTAssertEqual(runs.filter { !$0.hasPrefix(".") }, [], "no run folder is left for a run that never trained")

        let missing = try ChildProcess.run(try Self.mpirun(), Self.launcherArguments(ranks: 2) + ["-x", "SCREENLAB_MPI_LIBRARY", binary] + arguments,
                                           environment: ["SCREENLAB_MPI_LIBRARY": "/nonexistent/libmpi.so"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.output.contains("Open MPI's library could not be used") && missing.output.contains("apt-get install"), missing.output)
    }
}
