import MPDProtocol

/// Real MPD 0.23 command names and argument counts, with handlers that behave like MPD on an
/// empty queue with no mixer, so transcripts of what the codec decides can be replayed.
enum StubCommandTable {
    typealias Command = MPDCommand<StubContext>

    static let table = MPDCommandTable<StubContext>(commands)

    static var commands: [Command] {
        [
            stub("add", .between(1, 2), .add, event: .playlist) { (args) throws(MPDError) in
                guard ["", "/", "Beta Singer"].contains(where: { args[0].equals($0) }) else {
                    throw .noExist("No such directory")
                }
            },
            stub("addid", .between(1, 2), .add) { (_) throws(MPDError) in throw .noExist("No such song") },
            stub("albumart", .exactly(2), .read) { (args) throws(MPDError) in
                _ = try args[1].unsigned()
                throw .noExist("No such song")
            },
            stub("binarylimit", .exactly(1), []) { (args) throws(MPDError) in
                if try args[0].unsigned(max: 16_777_215) < 64 { throw .argument("Value too small") }
            },
            stub("clear", .none, .player, event: .playlist),
            stub("count", .atLeast(1), .read) { (args) throws(MPDError) in
                _ = try MPDSearchRequest.parseCount(args)
            },
            stub("crossfade", .exactly(1), .player, event: .options) { (args) throws(MPDError) in
                _ = try args[0].unsigned()
            },
            stub("currentsong", .none, .read),
            stub("delete", .exactly(1), .player) { (args) throws(MPDError) in try emptyQueueRange(args[0]) },
            stub("find", .atLeast(1), .read) { (args) throws(MPDError) in
                _ = try MPDSearchRequest.parse(args, foldCase: false)
            },
            stub("list", .atLeast(1), .read) { (args) throws(MPDError) in _ = try MPDListRequest.parse(args) },
            stub("lsinfo", .between(0, 1), .read) { (args) throws(MPDError) in
                if !args.isEmpty { throw .noExist("No such directory") }
            },
            stub("move", .exactly(2), .player) { (args) throws(MPDError) in
                _ = try args[0].range()
                _ = try args[1].unsigned(max: 0)
            },
            stub("pause", .between(0, 1), .player) { (args) throws(MPDError) in
                if let flag = args.first { _ = try flag.boolean() }
            },
            stub("play", .between(0, 1), .player, event: .player) { (args) throws(MPDError) in
                if let position = args.first, try position.integer() != -1 { throw .argument("Bad song index") }
            },
            stub("playlistinfo", .between(0, 1), .read) { (args) throws(MPDError) in
                if let range = args.first { try emptyQueueRange(range) }
            },
            stub("prio", .atLeast(2), .player) { (args) throws(MPDError) in
                _ = try args[0].unsigned(max: 255)
                for range in args.dropFirst() { try emptyQueueRange(range) }
            },
            stub("random", .exactly(1), .player, event: .options) { (args) throws(MPDError) in
                _ = try args[0].boolean()
            },
            stub("repeat", .exactly(1), .player, event: .options) { (args) throws(MPDError) in
                _ = try args[0].boolean()
            },
            stub("search", .atLeast(1), .read) { (args) throws(MPDError) in
                _ = try MPDSearchRequest.parse(args, foldCase: true)
            },
            stub("seek", .exactly(2), .player) { (args) throws(MPDError) in
                _ = try args[0].unsigned()
                _ = try args[1].float()
                throw .argument("Bad song index")
            },
            stub("seekcur", .exactly(1), .player) { (args) throws(MPDError) in
                _ = try args[0].float()
                throw .playerSync("Not playing")
            },
            stub("setvol", .exactly(1), .player) { (args) throws(MPDError) in
                _ = try args[0].unsigned(max: 100)
                throw MPDError(.unknown, "No mixer")
            },
            stub("status", .none, .read) { _ in },
            stub("swap", .exactly(2), .player) { (_) throws(MPDError) in throw .argument("Bad song index") },
            stub("tagtypes", .atLeast(0), []) { (args) throws(MPDError) in try tagtypes(args) },
        ]
    }

    /// The `status` lines §15 of the reference shows for a stopped, empty server.
    static let stoppedStatus: [(String, String)] = [
        ("repeat", "0"), ("random", "0"), ("single", "0"), ("consume", "0"), ("partition", "default"),
        ("playlist", "57"), ("playlistlength", "0"), ("mixrampdb", "0"), ("state", "stop"),
    ]

    private static func stub(
        _ name: String, _ arity: MPDArity, _ permission: MPDPermission, event: MPDIdleSubsystems = [],
        _ body: @escaping @Sendable ([MPDArgument]) throws(MPDError) -> Void = { _ in }
    ) -> Command {
        Command(name, arity, permission: permission) { (context, request, writer) throws(MPDError) in
            context.log.append(request)
            try body(request.arguments)
            if name == "status" {
                for (key, value) in stoppedStatus { writer.field(key, value) }
            }
            context.events.formUnion(event)
        }
    }

    private static func emptyQueueRange(_ argument: MPDArgument) throws(MPDError) {
        guard try argument.range().clamped(toCount: 0) != nil else { throw .argument("Bad song index") }
    }

    private static func tagtypes(_ args: [MPDArgument]) throws(MPDError) {
        guard let sub = args.first else { return }
        if sub.equals("clear") || sub.equals("all") { return }
        guard sub.equals("enable") || sub.equals("disable") else { throw .argument("Unknown sub command") }
        guard args.count > 1 else { throw .argument("Not enough arguments") }
        for name in args.dropFirst() where MPDTag(name: name) == nil { throw .argument("Unknown tag type") }
    }
}
