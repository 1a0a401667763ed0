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
