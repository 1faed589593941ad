import ArgumentParser

/// Prints an error a user can act on and exits non-zero (no stack trace, no crash).
func failure(_ message: String) -> ValidationError { ValidationError(message) }
