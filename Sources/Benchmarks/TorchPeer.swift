import Foundation

/// Runs the PyTorch peer benchmark (../shared/peers/torch-reference/torch_bench.py) and reads
/// its training-step throughput, so both engines are measured in one run on one machine.
public struct TorchPeer {
    /// "NCHW" / "channels_last" → images per second.
    public let trainingImagesPerSecond: [String: Double]
    public let output: String

    public static func run(python: String, folder: String, quick: Bool = true) throws -> TorchPeer {
        let text = try PeerScript.run(python: python, folder: folder, script: "torch_bench.py", arguments: quick ? ["--quick"] : [])
        return TorchPeer(trainingImagesPerSecond: parse(text), output: text)
    }

    /// Reads lines like "[NCHW] train step batch 8 (...): median 0.630 s, min ... -> 12.7 img/s".
    public static func parse(_ text: String) -> [String: Double] {
        var result: [String: Double] = [:]
        for line in text.split(separator: "\n") where line.contains("train step batch") {
            guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]"),
                  let arrow = line.range(of: "-> ", options: .backwards) else { continue }
            let format = String(line[line.index(after: open)..<close])
            let number = line[arrow.upperBound...].split(separator: " ").first.flatMap { Double($0) }
            if let number { result[format] = number }
        }
        return result
    }
}

/// Runs one of the peers' Python scripts in its folder and returns what it printed (stdout and
/// stderr together); a script that cannot start or exits non-zero is a `PeerError` with its tail.
enum PeerScript {
    static func run(python: String, folder: String, script: String, arguments: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch {
            throw PeerError(message: "cannot start \(python) in \(folder): \(error.localizedDescription)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw PeerError(message: "\(script) exited with \(process.terminationStatus):\n\(text.suffix(2000))")
        }
        return text
    }
}

public struct PeerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// CPU model and core count for benchmark headers.
public struct MachineDescription {
    public let cpu: String
    public let cores: Int

    public static func current() -> MachineDescription {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = info.split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        return MachineDescription(cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount)
    }

    public var summary: String { "\(cpu), \(cores) cores" }
}
