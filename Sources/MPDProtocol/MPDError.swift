/// A command failure that becomes one `ACK [code@index] {command} message` line.
///
/// Handlers throw it; the command table adds the list index and the command name, so a handler
/// only says what went wrong. The message is sanitised when it is encoded.
public struct MPDError: Error, Sendable, Hashable {
    public var code: MPDErrorCode
    public var message: String

    public init(_ code: MPDErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// An argument error (code 2), e.g. `Bad song index`.
    public static func argument(_ message: String) -> MPDError { MPDError(.argument, message) }

    /// A "does not exist" error (code 50), e.g. `No such song`.
    public static func noExist(_ message: String) -> MPDError { MPDError(.noExist, message) }

    /// A player-state error (code 55), e.g. `Not playing`.
    public static func playerSync(_ message: String) -> MPDError { MPDError(.playerSync, message) }

    /// A system error (code 52), e.g. `No mixer` for `volume`.
    public static func system(_ message: String) -> MPDError { MPDError(.system, message) }

    /// An "already exists" error (code 56).
    public static func exist(_ message: String) -> MPDError { MPDError(.exist, message) }

    /// The error for an unknown command name: `unknown command "NAME"` (code 5).
    public static func unknownCommand(_ name: String) -> MPDError {
        MPDError(.unknown, "unknown command \"\(name)\"")
    }
}
