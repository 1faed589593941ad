import Foundation
import Registry

/// What a page or API call tells the user instead of a stack trace: the HTTP status and one
/// sentence naming the thing and what to do.
enum WorkbenchError: Error, CustomStringConvertible {
    /// An id or name in the URL that the registry or the run does not have (404).
    case notFound(String)
    /// A run whose folder, report or data is no longer where the registry says (410).
    case gone(String)
    /// A request the workbench cannot act on: a bad query value, a malformed or oversized body (400).
    case badRequest(String)
    /// The registry is busy (another process holds a write lock past the timeout) or unreadable (503).
    case unavailable(String)

    var description: String {
        switch self {
        case .notFound(let message), .gone(let message), .badRequest(let message), .unavailable(let message): return message
        }
    }

    var status: Int {
        switch self {
        case .notFound: return 404
        case .gone: return 410
        case .badRequest: return 400
        case .unavailable: return 503
        }
    }

    /// Any error a handler throws, as what the user sees.
    static func from(_ error: Error) -> WorkbenchError {
        if let error = error as? WorkbenchError { return error }
        if let error = error as? RegistryError {
            switch error {
            case .unknownRun: return .notFound(error.description)
            case .badRunFolder: return .gone(error.description)
            case .locked, .corrupt, .newerSchema, .cannotOpen, .database: return .unavailable(error.description)
            }
        }
        return .gone("\(error)")
    }
}
