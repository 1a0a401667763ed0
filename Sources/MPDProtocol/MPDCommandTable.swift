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
        var byName: [String: MPDCommand<Context>] = [:]
        let builtins: [MPDCommand<Context>] = MPDBuiltinCommand.allCases.map { $0.command() }
        for command in builtins + commands {
            precondition(byName[command.name] == nil, "duplicate command \(command.name)")
            byName[command.name] = command
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
