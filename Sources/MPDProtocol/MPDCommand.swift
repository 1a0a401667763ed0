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

    public let name: String
    public let arity: MPDArity
    public let permission: MPDPermission
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
