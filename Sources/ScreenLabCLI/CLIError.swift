import ArgumentParser

/// A problem with the input (a file, its contents, a dataset): ArgumentParser prints
/// `Error: <message>` and exits 1, without the usage text, because the arguments were fine.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

/// Prints an error a user can act on and exits 1 (no stack trace, no crash, no usage text).
func failure(_ message: String) -> CommandFailure { CommandFailure(description: message) }

/// A bad argument: ArgumentParser prints the message with the usage line and exits 64 (EX_USAGE).
func usageError(_ message: String) -> ValidationError { ValidationError(message) }
