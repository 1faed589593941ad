import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one place that writes a command's output folder (`data split/convert/check --fix`,
/// `data synth`, `evaluate`, `data stats`, `compare`, `augment preview`).
///
/// - Confined: every path is given relative to the folder and checked component by component —
///   no absolute path, no empty, `.` or `..` component, no NUL — and no existing symbolic link
///   is followed on the way down, so a COCO `file_name: ../../x` or a split named `../../x`
///   cannot write outside the folder. The error names the offending value.
/// - All or nothing: files go to a staging folder (a hidden sibling of a new destination, or a
///   hidden folder inside an existing one) and reach the destination only in `commit()`: a new
///   destination is the staging folder renamed in one step; an existing one receives each file
///   by rename, after every destination has been checked. A failure before `commit()` leaves the
///   destination as it was and the staging folder is removed, so a rerun is not refused as
///   "not empty".
/// - Never replaces what is not a regular file (devices, FIFOs, links, folders) at a path.
public final class OutputFolder {
    public enum Existing {
        /// The destination must be new or empty (a dataset folder: stale files would mix in).
        case mustBeEmpty
        /// Files are added to an existing destination, replacing files of the same name (reports).
        case merge
    }

    /// Where the outputs end up.
    public let destination: URL
    /// Where they are written until `commit()`.
    public let staging: URL
    private let existing: Existing
    private let inputs: [URL]
    private let stagingIsInside: Bool
    private var removals: [String] = []
    private var finished = false
    /// Removes the staging folder if SIGINT/SIGTERM ends the process before commit or discard.
    private var signalToken: Int?

    /// `inputs`: the command's input files, which a merge must not replace (a results file
    /// kept inside the report folder under an output's name).
    public init(_ destination: URL, existing: Existing, notReplacing inputs: [URL] = []) throws {
        self.inputs = inputs
        var target = destination.standardizedFileURL
        if FileKind.of(target.path) == .symbolicLink {
            // `--out runs` where runs links to a bigger disk: write into the folder it names.
            target = target.resolvingSymlinksInPath()
        }
        self.destination = target
        self.existing = existing
        let kind = FileKind.of(target.path)
        guard kind == .missing || kind == .directory else {
            throw FileWriteError(path: target.path, reason: "it is \(kind), not a folder; give the path of a new or empty folder")
        }
        let contents = kind == .directory ? ((try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? []) : []
        if existing == .mustBeEmpty, !contents.isEmpty {
            throw FileWriteError(path: target.path, reason: "the folder is not empty; give a new or empty folder")
        }
        // A killed earlier run into the same place left its staging behind: sweep it.
        StaleStaging.sweep(in: target.deletingLastPathComponent(), prefix: ".\(target.lastPathComponent).partial-")
        if kind == .directory { StaleStaging.sweep(in: target, prefix: ".screenlab-partial-") }
        let tag = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // An existing folder (even empty) is kept and filled, never removed and replaced: it may be
        // the working folder of this process or of the user's shell.
        stagingIsInside = kind == .directory
        if stagingIsInside {
            staging = target.appendingPathComponent(".screenlab-partial-\(tag)")
        } else {
            let parent = target.deletingLastPathComponent()
            do { try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true) } catch {
                throw FileWriteError(path: target.path, reason: "cannot create folder \(parent.path): \(AtomicFile.plainReason(error))")
            }
            staging = parent.appendingPathComponent(".\(target.lastPathComponent).partial-\(tag)")
        }
        // Registered before it exists, so a signal can never find it made and unregistered.
        signalToken = SignalCleanup.register(staging)
        guard mkdir(staging.path, 0o755) == 0 else {
            let reason = String(cString: strerror(errno))
            finish()
            throw FileWriteError(path: target.path, reason: "cannot create the staging folder \(staging.path): \(reason)")
        }
    }

    deinit { if !finished { discard() } }

    /// Committed or discarded: the staging is no longer the signal handler's to remove.
    private func finish() {
        finished = true
        if let token = signalToken { signalToken = nil; SignalCleanup.unregister(token) }
    }

    /// The checked components of `relative`, or an error naming it.
    public static func components(of relative: String) throws -> [String] {
        func refuse(_ why: String) -> FileWriteError {
            FileWriteError(path: relative, reason: "output path '\(relative)' \(why); outputs must stay inside the output folder")
        }
        guard !relative.isEmpty else { throw refuse("is empty") }
        guard !relative.hasPrefix("/") else { throw refuse("is absolute") }
        guard !relative.utf8.contains(0) else { throw refuse("contains a NUL byte") }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for part in parts {
            if part == ".." { throw refuse("has a '..' component") }
            if part.isEmpty || part == "." { throw refuse("has an empty or '.' component") }
            if part.utf8.count > 255 { throw refuse("has a component longer than 255 bytes") }
        }
        return parts
    }

    /// The staging path for `relative`, its folders created as real folders (an existing link
    /// on the way is refused rather than followed).
    public func url(for relative: String) throws -> URL {
        let parts = try OutputFolder.components(of: relative)
        var url = staging
        for part in parts.dropLast() {
            url.appendPathComponent(part)
            switch FileKind.of(url.path) {
            case .directory: continue
            case .missing:
                guard mkdir(url.path, 0o755) == 0 || errno == EEXIST else {
                    throw FileWriteError(path: relative, reason: "cannot create folder \(url.path): \(String(cString: strerror(errno)))")
                }
            case let other:
                throw FileWriteError(path: relative, reason: "output path '\(relative)' goes through \(other) at \(url.lastPathComponent); outputs are not written through links or files")
            }
        }
        return url.appendingPathComponent(parts.last!)
    }

    /// Where `relative` will be once committed (for relative links and messages).
    public func destinationURL(for relative: String) throws -> URL {
        destination.appendingPathComponent(try OutputFolder.components(of: relative).joined(separator: "/"))
    }

    public func write(_ data: Data, to relative: String) throws {
        let url = try url(for: relative)
        // A file written twice in one run (a second sample on the same label) replaces the first.
        try AtomicFile.writeReplacingFile(data, at: url.path, reportingAs: relative, sync: false)
    }

    public func write(_ text: String, to relative: String) throws { try write(Data(text.utf8), to: relative) }

    /// A symbolic link at `relative` pointing at `target` (image links of a label set).
    public func link(_ relative: String, to target: URL) throws {
        let url = try url(for: relative)
        if FileKind.of(url.path) == .symbolicLink { unlink(url.path) }
        guard symlink(target.path, url.path) == 0 else {
            throw FileWriteError(path: relative, reason: "cannot link to \(target.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Deletes `relative` from the destination at commit (a stale file the new set must not keep).
    public func removeOnCommit(_ relative: String) throws {
        _ = try OutputFolder.components(of: relative)
        removals.append(relative)
    }

    /// Moves everything into the destination. After a failure here the files not yet moved stay
    /// in the staging folder, which is removed.
    public func commit() throws {
        precondition(!finished, "OutputFolder committed twice")
        defer { finish(); if FileKind.of(staging.path) == .directory { removeTree(staging.path) } }
        syncTree(staging.path)
        for relative in removals {
            let url = destination.appendingPathComponent(relative)
            if FileKind.of(url.path) == .regularFile { unlink(url.path) }
        }
        if !stagingIsInside, FileKind.of(destination.path) == .missing {
            guard rename(staging.path, destination.path) == 0 else {
                throw FileWriteError(path: destination.path, reason: "cannot move the finished output into place: \(String(cString: strerror(errno)))")
            }
        } else {
            try merge(from: staging, into: destination, relative: "")
        }
        AtomicFile.syncFolder(destination.deletingLastPathComponent().path)
        AtomicFile.syncFolder(destination.path)
    }

    /// Removes the staging folder; the destination is untouched.
    public func discard() {
        removeTree(staging.path)
        finish()  // after: a signal meanwhile still removes what is left
    }

    /// Every staged file is checked against what it would replace before the first one moves,
    /// so a refused merge changes nothing.
    private func merge(from source: URL, into target: URL, relative: String) throws {
        var moves: [(from: URL, to: URL)] = []
        try plan(from: source, into: target, moves: &moves)
        for move in moves {
            let folder = move.to.deletingLastPathComponent()
            if FileKind.of(folder.path) == .missing {
                do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                    throw FileWriteError(path: folder.path, reason: "cannot create folder: \(AtomicFile.plainReason(error))")
                }
            }
            guard rename(move.from.path, move.to.path) == 0 else {
                throw FileWriteError(path: move.to.path, reason: "cannot move into place: \(String(cString: strerror(errno)))")
            }
        }
    }

    private func plan(from source: URL, into target: URL, moves: inout [(from: URL, to: URL)]) throws {
        let targetKind = FileKind.of(target.path)
        guard targetKind == .missing || targetKind == .directory else {
            throw FileWriteError(path: target.path, reason: "it is \(targetKind), not a folder; outputs are not written through links or files")
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path).sorted() {
            let from = source.appendingPathComponent(name), to = target.appendingPathComponent(name)
            if FileKind.of(from.path) == .directory {
                try plan(from: from, into: to, moves: &moves)
                continue
            }
            let existing = FileKind.of(to.path)
            guard existing == .missing || existing == .regularFile || (existing == .symbolicLink && FileKind.of(from.path) == .symbolicLink) else {
                throw FileWriteError(path: to.path, reason: "it is \(existing); outputs replace only regular files")
            }
            if existing == .regularFile, let input = inputs.first(where: { FileKind.sameFile($0.path, to.path) }) {
                throw FileWriteError(path: to.path, reason: "it is the input \(input.relativePath) of this command; write the output to another folder")
            }
            moves.append((from, to))
        }
    }

    /// fsync every file and folder written (one pass at the end instead of one per write).
    private func syncTree(_ path: String) {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return }
        while let name = walker.nextObject() as? String {
            let full = path + "/" + name
            guard FileKind.of(full) == .regularFile || FileKind.of(full) == .directory else { continue }
            let fd = open(full, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            if fd >= 0 { fsync(fd); close(fd) }
        }
        AtomicFile.syncFolder(path)
    }

    /// Deletes a tree without following links (links are removed, never their targets).
    private func removeTree(_ path: String) {
        if FileKind.of(path) == .directory {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
