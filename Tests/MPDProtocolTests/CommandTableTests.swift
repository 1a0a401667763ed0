import MPDProtocol
import Testing

/// `commands`/`notcommands`, permissions and argument counts, all generated from the table.
@Suite struct CommandTableTests {
    @Test func commandsListingMatchesMPD() throws {
        let transcript = try Transcript.load("commands.txt")
        let connection = try #require(transcript.connections.first)
        var driver = SessionDriver(table: MPDCommandNames.table)
        for step in connection.steps {
            if case .bytes(let bytes) = step.input { driver.receive(bytes) }
        }
        #expect(escaped(driver.output) == escaped(connection.steps.last?.expectedOutput ?? []))
    }

    @Test func permissionsSplitCommandsAndNotcommands() {
        let table = MPDCommandNames.table
        let readOnly: MPDPermission = .read
        let available = table.availableNames(for: readOnly)
        let unavailable = table.unavailableNames(for: readOnly)
        #expect(available.contains("status") && available.contains("ping") && available.contains("password"))
        #expect(!available.contains("play") && unavailable.contains("play") && unavailable.contains("config"))
        #expect(Set(available).isDisjoint(with: unavailable))
        #expect((available + unavailable).sorted() == table.names.sorted())
        #expect(table.availableNames(for: .all) == table.names)
        #expect(table.unavailableNames(for: .all).isEmpty)
    }

    @Test func refusedCommandsGetACK4() {
        var driver = SessionDriver(table: MPDCommandNames.table)
        driver.context.permission = .read
        driver.receive(Array("play\nnotcommands\nstatus\n".utf8))
        let expected = "OK MPD 0.23.5\nACK [4@0] {play} you don't have permission for \"play\"\n"
        let output = String(decoding: driver.output, as: UTF8.self)
        #expect(output.hasPrefix(expected))
        #expect(output.contains("command: play\n") && output.contains("command: config\n"))
        #expect(output.hasSuffix("command: volume\nOK\nOK\n"))
    }

    @Test func arityMessages() {
        #expect(throws: MPDError.argument("wrong number of arguments for \"ping\"")) {
            try MPDArity.none.check(1, command: "ping")
        }
        #expect(throws: MPDError.argument("too few arguments for \"add\"")) {
            try MPDArity.between(1, 2).check(0, command: "add")
        }
        #expect(throws: MPDError.argument("too many arguments for \"lsinfo\"")) {
            try MPDArity.between(0, 1).check(2, command: "lsinfo")
        }
        #expect(throws: Never.self) { try MPDArity.unchecked.check(100, command: "close") }
        #expect(throws: Never.self) { try MPDArity.atLeast(1).check(62, command: "find") }
    }

    @Test func handlersSeeParsedRequestsOnlyAfterTheChecks() {
        var driver = SessionDriver()
        driver.receive(Array("play \"1\"\nplay 1 2\nplay\n".utf8))
        #expect(driver.context.log == [MPDRequest(name: "play", arguments: ["1"]), MPDRequest(name: "play")])
    }

    @Test func builtinsAreInEveryTable() {
        let table = MPDCommandTable<StubContext>([])
        #expect(table.names == ["close", "commands", "idle", "notcommands", "ping"])
        #expect(table.command(named: "idle")?.permission == .read)
        #expect(table.command(named: "noidle") == nil)
    }

    /// A server may list its whole table in one place, the built-ins' rows included, as MPD's
    /// `AllCommands.cxx` does: the same table as one given only its own commands.
    @Test func aTableListedWholeEqualsOneGivenItsOwnCommands() {
        let builtins: [MPDCommand<StubContext>] = MPDBuiltinCommand.allCases.map { $0.command() }
        let whole = MPDCommandTable(allCommands: builtins + StubCommandTable.commands)
        #expect(whole.names == StubCommandTable.table.names)
        #expect(whole.availableNames(for: .read) == StubCommandTable.table.availableNames(for: .read))
        for builtin in MPDBuiltinCommand.allCases {
            let name = (builtin.command() as MPDCommand<StubContext>).name
            let isBuiltin = if case .builtin(builtin)? = whole.command(named: name)?.action { true } else { false }
            #expect(isBuiltin, "\(name)")
        }
    }
}
