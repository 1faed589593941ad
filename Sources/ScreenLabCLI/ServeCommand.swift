import ArgumentParser
import Dispatch
import Foundation
import Server

/// `screenlab serve`: the workbench in a browser (Sources/Server).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "The workbench in a browser: runs, a run's report, comparison, error screens, threshold picking.",
        discussion: """
        A local web app over the run registry: the runs table (live while a run trains), each run's curves, per-class table \
        and confusion matrix (click a cell or a class for the screens behind it), comparison of ticked runs, and per-class \
        thresholds picked on the PR curves and saved into a new weights file beside the run's (picked/STAMP/model.slw). \
        Listens on 127.0.0.1 unless --host says otherwise; stop it with Ctrl-C.
        """)

    @OptionGroup var options: RegistryOptions
    @Option(help: "Port to listen on (0: any free port, printed at start).") var port = 8080
    @Option(help: "Address to listen on. The default serves this machine only; 0.0.0.0 serves the network (no authentication).")
    var host = "127.0.0.1"

    func validate() throws {
        guard (0...65535).contains(port) else { throw usageError("--port must be 0…65535, got \(port)") }
        guard !host.isEmpty, host.count <= 255, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".:-".contains($0)) }) else {
            throw usageError("--host must be an address or host name such as 127.0.0.1, ::1 or 0.0.0.0; got '\(host)'")
        }
    }

    func run() throws {
        let workbench: Workbench
        do { workbench = try Workbench(registryFile: options.file) } catch { throw failure("\(error)") }
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            warn("serving on \(host): anyone who reaches this address can read the runs and save thresholds (there is no authentication)")
        }
        let finished = DispatchSemaphore(value: 0)
        let outcome = ServeOutcome()
        let host = self.host, port = self.port
        Task {
            do {
                try await workbench.serve(host: host, port: port) { address in
                    print("serving \(workbench.registryFile.path) at \(address) (Ctrl-C stops)")
                    fflush(stdout)
                }
            } catch {
                outcome.error = error
            }
            finished.signal()
        }
        finished.wait()
        if let error = outcome.error { throw failure("cannot serve on \(host):\(port): \(error)") }
    }
}

/// The server task's error, handed to the waiting main thread.
private final class ServeOutcome: @unchecked Sendable {
    var error: Error?
}
