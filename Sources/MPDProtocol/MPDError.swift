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

/// The numeric error codes MPD puts in `ACK [CODE@INDEX]` lines (MPD's `enum ack`).
///
/// python-mpd2 exposes the code as `CommandError.errno` and Home Assistant compares it with
/// `NO_EXIST`, so a handler must pick the same code MPD uses for the same situation.
public enum MPDErrorCode: Int, Sendable, Hashable, CaseIterable {
    /// `ACK_ERROR_NOT_LIST`; MPD never sends it in practice.
    case notList = 1
    /// A malformed or out-of-range argument, a wrong argument count.
    case argument = 2
    /// `password` with a wrong password.
    case password = 3
    /// The connection lacks the permission the command needs.
    case permission = 4
    /// Unknown command, tokenizer errors, and a few odd runtime failures.
    case unknown = 5
    /// No such song, directory, playlist, file or output.
    case noExist = 50
    /// The queue is full.
    case playlistMax = 51
    /// A system error (file access, no mixer for `volume`).
    case system = 52
    /// A stored playlist could not be loaded.
    case playlistLoad = 53
    /// The update queue is full.
    case updateAlready = 54
    /// The player is not in a state that allows the command (`Not playing`, `No current song`).
    case playerSync = 55
    /// The target already exists (`Playlist already exists`).
    case exist = 56
}
