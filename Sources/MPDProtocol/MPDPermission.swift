/// The permissions a connection may hold and a command may require (MPD's `PERMISSION_*`).
///
/// A command runs when the connection holds every permission in the command's set; commands
/// needing none (`ping`, `close`, `password`, `commands`…) always run. Without passwords a
/// connection holds `.all`.
public struct MPDPermission: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let read = Self(rawValue: 1 << 0)
    public static let add = Self(rawValue: 1 << 1)
    public static let control = Self(rawValue: 1 << 2)
    public static let admin = Self(rawValue: 1 << 3)
    public static let player = Self(rawValue: 1 << 4)

    /// Every permission (MPD's default without `password` settings).
    public static let all: Self = [.read, .add, .control, .admin, .player]
}

/// The per-connection value the command table's handlers work on.
///
/// The server module supplies the concrete type (the engine bridge plus this connection's
/// tagtypes, binarylimit, subscriptions…); the codec only needs to know what it may do.
public protocol MPDCommandContext {
    /// What this connection may do now (it may change with `password`).
    var permission: MPDPermission { get }
}
