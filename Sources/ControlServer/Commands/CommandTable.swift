import MPDProtocol

/// The MPD command table, in the manner of MPD's `command/AllCommands.cxx`: one row per command (its name,
/// how many arguments it takes, the permission it needs, and its handler), sorted by name.
///
/// `commands` and `notcommands` list exactly these rows (those the connection may and may not run), and
/// the table checks the argument count and permission before a handler runs, so a handler may index its
/// arguments within the row's count without checking. Only list a command that really works: clients
/// feature-test `commands` (`MPDCommandTable`). The handlers live in the `Commands+Topic.swift` files.
extension ControlCommands {
    /// What carries out one command: it works on the connection's context, writes its answer into the
    /// writer, and throws the error its `ACK` carries.
    typealias Handler = MPDCommand<MPDContext>.Handler

    /// Every command, the built-ins (`close`, `commands`, `idle`, `notcommands`, `ping`) included.
    static let allCommands: [MPDCommand<MPDContext>] = [
        row("add", .between(1, 2), .add, add),
        row("addid", .between(1, 2), .add, addid),
        row("albumart", .exactly(2), .read, albumart),
        row("binarylimit", .exactly(1), .read, binarylimit),
        row("channels", .none, .read, channels),
        row("clear", .none, .player, clear),
        row("clearerror", .none, .player, clearerror),
        builtin(.close),
        builtin(.commands),
        row("config", .none, .admin, config),
        row("consume", .exactly(1), .player, consume),
        row("count", .atLeast(1), .read, count),
        row("crossfade", .exactly(1), .player, crossfade),
        row("currentsong", .none, .read, currentsong),
        row("decoders", .none, .read, decoders),
        row("delete", .exactly(1), .player, delete),
        row("deleteid", .exactly(1), .player, deleteid),
        row("disableoutput", .exactly(1), .admin, disableoutput),
        row("enableoutput", .exactly(1), .admin, enableoutput),
        row("find", .atLeast(1), .read, find),
        row("findadd", .atLeast(1), .add, findadd),
        row("getvol", .none, .read, getvol),
        row("hold", .between(1, 2), .control, hold),
        builtin(.idle),
        row("list", .atLeast(1), .read, list),
        row("listall", .between(0, 1), .read, listall),
        row("listallinfo", .between(0, 1), .read, listallinfo),
        row("listfiles", .between(0, 1), .read, listfiles),
        row("listplaylist", .between(1, 2), .read, listplaylist),
        row("listplaylistinfo", .between(1, 2), .read, listplaylistinfo),
        row("listplaylists", .none, .read, listplaylists),
        row("load", .between(1, 3), .add, load),
        row("lsinfo", .between(0, 1), .read, lsinfo),
        row("mixrampdb", .exactly(1), .player, mixrampdb),
        row("mixrampdelay", .exactly(1), .player, mixrampdelay),
        row("move", .exactly(2), .player, move),
        row("moveid", .exactly(2), .player, moveid),
        row("next", .none, .player, next),
        builtin(.notcommands),
        row("outputs", .none, .read, outputs),
        row("outputset", .exactly(3), .admin, outputset),
        row("password", .exactly(1), [], password),
        row("pause", .between(0, 1), .player, pause),
        builtin(.ping),
        row("play", .between(0, 1), .player, play),
        row("playid", .between(0, 1), .player, playid),
        row("playlistadd", .between(2, 3), .control, playlistadd),
        row("playlistclear", .exactly(1), .control, playlistclear),
        row("playlistdelete", .exactly(2), .control, playlistdelete),
        row("playlistfind", .atLeast(1), .read, playlistfind),
        row("playlistid", .between(0, 1), .read, playlistid),
        row("playlistinfo", .between(0, 1), .read, playlistinfo),
        row("playlistmove", .exactly(3), .control, playlistmove),
        row("playlistsearch", .atLeast(1), .read, playlistsearch),
        row("plchanges", .between(1, 2), .read, plchanges),
        row("plchangesposid", .between(1, 2), .read, plchangesposid),
        row("podcastadd", .exactly(1), .control, podcastadd),
        row("podcastdelete", .exactly(1), .control, podcastdelete),
        row("podcastkeep", .between(1, 2), .control, podcastkeep),
        row("podcastlist", .none, .read, podcastlist),
        row("podcastupdate", .between(0, 1), .control, podcastupdate),
        row("press", .exactly(1), .control, press),
        row("previous", .none, .player, previous),
        row("prio", .atLeast(2), .player, prio),
        row("prioid", .atLeast(2), .player, prioid),
        row("random", .exactly(1), .player, random),
        row("readmessages", .none, .read, readmessages),
        row("readpicture", .exactly(2), .read, readpicture),
        row("rename", .exactly(2), .control, rename),
        row("repeat", .exactly(1), .player, `repeat`),
        row("replay_gain_mode", .exactly(1), .control, replay_gain_mode),
        row("replay_gain_status", .none, .read, replay_gain_status),
        row("rescan", .between(0, 1), .admin, update),
        row("rm", .exactly(1), .control, rm),
        row("save", .exactly(1), .control, save),
        row("screen", .between(0, 1), .read, screen),
        row("search", .atLeast(1), .read, search),
        row("searchadd", .atLeast(1), .add, searchadd),
        row("seek", .exactly(2), .player, seek),
        row("seekcur", .exactly(1), .player, seekcur),
        row("seekid", .exactly(2), .player, seekid),
        row("sendmessage", .exactly(2), .control, sendmessage),
        row("setvol", .exactly(1), .player, setvol),
        row("shuffle", .between(0, 1), .player, shuffle),
        row("single", .exactly(1), .player, single),
        row("stats", .none, .read, stats),
        row("status", .none, .read, status),
        row("sticker", .atLeast(3), .admin, sticker),
        row("stop", .none, .player, stop),
        row("subscribe", .exactly(1), .read, subscribe),
        row("swap", .exactly(2), .player, swap),
        row("swapid", .exactly(2), .player, swapid),
        row("tagtypes", .atLeast(0), .read, tagtypes),
        row("toggleoutput", .exactly(1), .admin, toggleoutput),
        row("unsubscribe", .exactly(1), .read, unsubscribe),
        row("update", .between(0, 1), .admin, update),
        row("urlhandlers", .none, .read, urlhandlers),
        row("volume", .exactly(1), .player, volume),
        row("wheel", .exactly(1), .control, wheel),
    ]

    /// A row for a command a handler here carries out.
    private static func row(
        _ name: String, _ arity: MPDArity, _ permission: MPDPermission, _ handler: @escaping Handler
    ) -> MPDCommand<MPDContext> {
        MPDCommand(name, arity, permission: permission, handler: handler)
    }

    /// A row for a command the protocol codec carries out itself, as MPD 0.23 declares it.
    private static func builtin(_ command: MPDBuiltinCommand) -> MPDCommand<MPDContext> {
        command.command()
    }
}
