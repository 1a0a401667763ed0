/// The command table: every command a connection can name, looked up by exact name.
///
/// `commands`/`notcommands` output, unknown-command errors, argument-count and permission
/// errors all come from this table, so what `commands` lists is exactly what runs. Only list
/// commands that really work: Home Assistant and M.A.L.P. feature-test `commands`, and an absent
/// command answers `ACK [5@0] {} unknown command "NAME"` as in MPD.
///
/// Immutable and `Sendable`: build one at start-up and share it between connections.
public struct MPDCommandTable<Context: MPDCommandContext>: Sendable {
    private let byName: [String: MPDCommand<Context>]
    /// All names, sorted bytewise (MPD's `strcmp` order).
    public let names: [String]

    /// Builds a table from engine commands plus the built-ins (`close`, `ping`, `idle`,
    /// `commands`, `notcommands`). Names must be unique and must not shadow a built-in.
    public init(_ commands: [MPDCommand<Context>]) {
        self.init(allCommands: MPDBuiltinCommand.allCases.map { $0.command() } + commands)
    }

    /// Builds a table from every row it holds, the built-ins' included (`MPDBuiltinCommand.command()`),
    /// for a server that lists its whole table in one place, as MPD's `command/AllCommands.cxx` does.
    /// Names must be unique, and every built-in must be there: the session relies on `idle` and `close`.
    public init(allCommands: [MPDCommand<Context>]) {
        var byName: [String: MPDCommand<Context>] = [:]
        for command in allCommands {
            precondition(byName[command.name] == nil, "duplicate command \(command.name)")
            byName[command.name] = command
        }
        for builtin in MPDBuiltinCommand.allCases {
            let name = (builtin.command() as MPDCommand<Context>).name
            guard case .builtin(builtin)? = byName[name]?.action else {
                preconditionFailure("the table has no row for the built-in command \(name)")
            }
        }
        self.byName = byName
        names = byName.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The command named exactly `name`, if any.
    public func command(named name: String) -> MPDCommand<Context>? {
        byName[name]
    }

    /// Names a connection holding `permission` may run, alphabetically (`commands`).
    public func availableNames(for permission: MPDPermission) -> [String] {
        names.filter { permission.isSuperset(of: byName[$0]!.permission) }
    }

    /// Names a connection holding `permission` may not run, alphabetically (`notcommands`).
    public func unavailableNames(for permission: MPDPermission) -> [String] {
        names.filter { !permission.isSuperset(of: byName[$0]!.permission) }
    }

    /// Finds the command for `request` and checks permission and argument count.
    ///
    /// Errors: `unknown command "foo"` (5), `you don't have permission for "x"` (4), the arity
    /// messages (2).
    public func resolve(_ request: MPDRequest, permission: MPDPermission) throws(MPDError) -> MPDCommand<Context> {
        guard let command = byName[request.name] else { throw .unknownCommand(request.name) }
        guard permission.isSuperset(of: command.permission) else {
            throw MPDError(.permission, "you don't have permission for \"\(command.name)\"")
        }
        try command.arity.check(request.arguments.count, command: command.name)
        return command
    }
}
