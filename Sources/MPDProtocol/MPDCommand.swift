/// One row of the command table: name, argument count, permission and what runs it.
///
/// Handlers are supplied by the server module, bound to its per-connection `Context`. A handler
/// runs synchronously, writes its payload into the writer, and throws `MPDError` for an `ACK`;
/// the table checks the argument count and permission before calling it, so a handler may index
/// `request.arguments` within its declared arity without checking.
public struct MPDCommand<Context>: Sendable {
    /// The function that carries out a command for one connection.
    public typealias Handler =
        @Sendable (inout Context, MPDRequest, inout MPDResponseWriter) throws(MPDError) -> Void

    /// What executes the command.
    public enum Action: Sendable {
        /// A handler supplied by the engine side.
        case handler(Handler)
        /// A command the codec carries out itself.
        case builtin(MPDBuiltinCommand)
    }

    /// The exact name clients send, `[a-z][a-z0-9_]*`.
    public let name: String
    /// How many arguments the table lets through to the handler.
    public let arity: MPDArity
    /// What the connection must hold for the command to run (and to be listed by `commands`).
    public let permission: MPDPermission
    /// What runs the command.
    public let action: Action

    /// A command carried out by `handler`.
    public init(_ name: String, _ arity: MPDArity, permission: MPDPermission, handler: @escaping Handler) {
        self.init(name, arity, permission: permission, action: .handler(handler))
    }

    /// A command with an explicit action.
    public init(_ name: String, _ arity: MPDArity, permission: MPDPermission, action: Action) {
        precondition(
            name.utf8.first.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") } == true
                && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F },
            "command names are [a-z][a-z0-9_]*: \(name)")
        self.name = name
        self.arity = arity
        self.permission = permission
        self.action = action
    }
}

/// The commands the codec itself carries out, because they act on the session, not the engine.
public enum MPDBuiltinCommand: Sendable, Hashable, CaseIterable {
    /// `close`: closes the connection with no response (any arguments, even inside a list).
    case close
    /// `ping`: answers `OK`.
    case ping
    /// `idle [SUBSYSTEM…]`: waits for changes; ends a command list's execution.
    case idle
    /// `commands`: the commands this connection may run, alphabetically.
    case commands
    /// `notcommands`: the commands this connection may not run.
    case notcommands

    /// The table rows MPD 0.23 uses for the built-in commands.
    public func command<Context>() -> MPDCommand<Context> {
        switch self {
        case .close: MPDCommand("close", .unchecked, permission: [], action: .builtin(self))
        case .ping: MPDCommand("ping", .none, permission: [], action: .builtin(self))
        case .idle: MPDCommand("idle", .atLeast(0), permission: .read, action: .builtin(self))
        case .commands: MPDCommand("commands", .none, permission: [], action: .builtin(self))
        case .notcommands: MPDCommand("notcommands", .none, permission: [], action: .builtin(self))
        }
    }
}

/// How many arguments a command accepts, checked before its handler runs (MPD's min/max).
public enum MPDArity: Sendable, Hashable {
    /// Any number; nothing is checked (MPD's `-1, -1`, used by `close`).
    case unchecked
    /// Between `min` and `max` arguments; `max == nil` means no upper limit.
    case bounded(min: Int, max: Int?)

    /// Exactly `count` arguments.
    public static func exactly(_ count: Int) -> MPDArity { .bounded(min: count, max: count) }

    /// Between `min` and `max` arguments.
    public static func between(_ min: Int, _ max: Int) -> MPDArity { .bounded(min: min, max: max) }

    /// At least `min` arguments.
    public static func atLeast(_ min: Int) -> MPDArity { .bounded(min: min, max: nil) }

    /// No arguments.
    public static let none = MPDArity.exactly(0)

    /// Checks `count` for the command `name`, with MPD's messages: `wrong number of arguments
    /// for "ping"` when min equals max, else `too few arguments for "add"` or `too many
    /// arguments for "lsinfo"` (code 2).
    public func check(_ count: Int, command name: String) throws(MPDError) {
        guard case .bounded(let min, let max) = self else { return }
        if min == max && count != min {
            throw .argument("wrong number of arguments for \"\(name)\"")
        } else if count < min {
            throw .argument("too few arguments for \"\(name)\"")
        } else if let max, count > max {
            throw .argument("too many arguments for \"\(name)\"")
        }
    }
}

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
