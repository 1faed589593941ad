import Foundation
import TestSupport
import XCTest

/// Two ranks on two hosts over TCP (two network namespaces joined by a veth pair,
/// `two-hosts.sh`) train the bits two ranks on one host train: the same N gives the same run
/// wherever the ranks are. Needs root (namespaces) and iproute2; skips, saying so, otherwise.
final class TwoHostTests: XCTestCase {
    func testTwoNamespacesOverTCPTrainTheOneHostBits() throws {
        _ = try MPITrainingTests.mpirun()
        guard getuid() == 0 else { throw XCTSkip("network namespaces need root (run the tests as root, as CI does)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") || FileManager.default.isExecutableFile(atPath: "/sbin/ip") else {
            throw XCTSkip("no `ip` (iproute2): sudo apt-get install -y iproute2")
        }
        let probe = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "ip netns add sl-probe-$$ && ip netns del sl-probe-$$"])
        guard probe.status == 0 else { throw XCTSkip("this machine refuses network namespaces: \(probe.output)") }

        let experiment = try MPITrainingTests.experiment()
        let folder = try TestFolders.make("mpi-two-hosts")
        let oneHost = try MPITrainingTests.train(ranks: 2, runs: folder.appendingPathComponent("one-host"), experiment: experiment)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("two-hosts.sh")
        let registry = folder.appendingPathComponent("runs.sqlite")
        let runs = folder.appendingPathComponent("two-hosts")
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), [script.path, try ScreenlabProcess.binary().path, "train", experiment.path,
                                                                            "--runs", runs.path, "--registry", registry.path, "--quiet", "--set", "threads=1"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("2 processes on host-a, host-b"), result.output)
        let twoHosts = try MPITrainingTests.runFolder(in: runs)
        let a = try MPITrainingTests.weights(twoHosts), b = try MPITrainingTests.weights(oneHost)
        XCTAssertEqual(a.count, b.count)
        for (name, values) in a { XCTAssertEqual(values.map(\.bitPattern), b[name]?.map(\.bitPattern), "\(name): two hosts differ from one") }
        let show = try ScreenlabProcess.run(["runs", "show", twoHosts.lastPathComponent, "--registry", registry.path])
        XCTAssertTrue(show.output.contains("2 (mpirun) on 2 host(s): host-a, host-b"), show.output)
        let leftover = try ChildProcess.run(URL(fileURLWithPath: "/usr/sbin/ip"), ["netns", "list"])
        XCTAssertFalse(leftover.output.contains("sl-a-") || leftover.output.contains("sl-b-"), "namespaces left behind: \(leftover.output)")
    }
}
