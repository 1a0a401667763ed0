import MPDProtocol

/// MPD 0.23's full command table (`command/AllCommands.cxx`): name, argument count, permission.
///
/// `sticker` and `listneighbors` are left out, as on the reference server (no sticker database,
/// no neighbor plugin). Used to check that `commands` output generated from a table matches MPD.
enum MPDCommandNames {
    typealias Row = (name: String, arity: MPDArity, permission: MPDPermission)

    static let rows: [Row] = [
        ("add", .between(1, 2), .add), ("addid", .between(1, 2), .add), ("addtagid", .exactly(3), .add),
        ("albumart", .exactly(2), .read), ("binarylimit", .exactly(1), []), ("channels", .none, .read),
        ("clear", .none, .player), ("clearerror", .none, .player), ("cleartagid", .between(1, 2), .add),
        ("config", .none, .admin), ("consume", .exactly(1), .player), ("count", .atLeast(1), .read),
        ("crossfade", .exactly(1), .player), ("currentsong", .none, .read), ("decoders", .none, .read),
        ("delete", .exactly(1), .player), ("deleteid", .exactly(1), .player), ("delpartition", .exactly(1), .admin),
        ("disableoutput", .exactly(1), .admin), ("enableoutput", .exactly(1), .admin),
        ("find", .atLeast(1), .read), ("findadd", .atLeast(1), .add), ("getfingerprint", .exactly(1), .read),
        ("getvol", .none, .read), ("kill", .unchecked, .admin), ("list", .atLeast(1), .read),
        ("listall", .between(0, 1), .read), ("listallinfo", .between(0, 1), .read),
        ("listfiles", .between(0, 1), .read), ("listmounts", .none, .read), ("listpartitions", .none, .read),
        ("listplaylist", .exactly(1), .read), ("listplaylistinfo", .exactly(1), .read),
        ("listplaylists", .none, .read), ("load", .between(1, 3), .add), ("lsinfo", .between(0, 1), .read),
        ("mixrampdb", .exactly(1), .player), ("mixrampdelay", .exactly(1), .player), ("mount", .exactly(2), .admin),
        ("move", .exactly(2), .player), ("moveid", .exactly(2), .player), ("moveoutput", .exactly(1), .admin),
        ("newpartition", .exactly(1), .admin), ("next", .none, .player), ("outputs", .none, .read),
        ("outputset", .exactly(3), .admin), ("partition", .exactly(1), .read), ("password", .exactly(1), []),
        ("pause", .between(0, 1), .player), ("play", .between(0, 1), .player), ("playid", .between(0, 1), .player),
        ("playlist", .none, .read), ("playlistadd", .between(2, 3), .control),
        ("playlistclear", .exactly(1), .control), ("playlistdelete", .exactly(2), .control),
        ("playlistfind", .atLeast(1), .read), ("playlistid", .between(0, 1), .read),
        ("playlistinfo", .between(0, 1), .read), ("playlistmove", .exactly(3), .control),
        ("playlistsearch", .atLeast(1), .read), ("plchanges", .between(1, 2), .read),
        ("plchangesposid", .between(1, 2), .read), ("previous", .none, .player), ("prio", .atLeast(2), .player),
        ("prioid", .atLeast(2), .player), ("random", .exactly(1), .player), ("rangeid", .exactly(2), .add),
        ("readcomments", .exactly(1), .read), ("readmessages", .none, .read), ("readpicture", .exactly(2), .read),
        ("rename", .exactly(2), .control), ("repeat", .exactly(1), .player),
        ("replay_gain_mode", .exactly(1), .player), ("replay_gain_status", .none, .read),
        ("rescan", .between(0, 1), .control), ("rm", .exactly(1), .control), ("save", .exactly(1), .control),
        ("search", .atLeast(1), .read), ("searchadd", .atLeast(1), .add), ("searchaddpl", .atLeast(2), .control),
        ("seek", .exactly(2), .player), ("seekcur", .exactly(1), .player), ("seekid", .exactly(2), .player),
        ("sendmessage", .exactly(2), .control), ("setvol", .exactly(1), .player), ("shuffle", .between(0, 1), .player),
        ("single", .exactly(1), .player), ("stats", .none, .read), ("status", .none, .read),
        ("stop", .none, .player), ("subscribe", .exactly(1), .read), ("swap", .exactly(2), .player),
        ("swapid", .exactly(2), .player), ("tagtypes", .atLeast(0), []), ("toggleoutput", .exactly(1), .admin),
        ("unmount", .exactly(1), .admin), ("unsubscribe", .exactly(1), .read), ("update", .between(0, 1), .control),
        ("urlhandlers", .none, .read), ("volume", .exactly(1), .player),
    ]

    /// A table with every row above and handlers that do nothing.
    static let table = MPDCommandTable<StubContext>(
        rows.map { row in
            MPDCommand(row.name, row.arity, permission: row.permission) { (_, _, _) throws(MPDError) in }
        })
}
