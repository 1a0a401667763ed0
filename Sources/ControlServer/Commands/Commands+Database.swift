import ClickWheelCore
import Foundation
import Library
import MPDProtocol

/// The library: browsing its folders, listing and searching its songs and tags, and the playlists (stored
/// ones and the music folder's files).
extension ControlCommands {
    /// `lsinfo [URI]`: a folder's subfolders, songs and playlists (at the root, the stored playlists too);
    /// a song's own path lists that song.
    static func lsinfo(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let uri = try MusicPath.normalize(req.arguments.first, command: "lsinfo")
        // The folder's own songs and its subfolders' times: the songs below those are not read.
        let tree = try ctx.folderTree()
        let songs = tree.times[uri] == nil ? [] : try libraryCall { try ctx.catalog.songs(directlyIn: uri) }
        let playlists = try libraryCall { try ctx.catalog.playlists() }.filter { DirectoryTree.parent(of: $0.path) == uri }
        if !tree.exists(uri), playlists.isEmpty, !uri.isEmpty {
            // A song's own path lists that song.
            if let id = try libraryCall({ try ctx.catalog.trackID(path: uri) }),
                let song = try libraryCall({ try ctx.catalog.songs(ids: [id]).first })
            {
                SongWriter.write(song, tags: ctx.client.tagTypes, into: &w)
                return
            }
            throw .noExist("No such directory")
        }
        if uri.isEmpty {
            // The root also lists the stored playlists (mpc lsplaylists reads them here).
            try writeStoredPlaylists(&ctx, &w)
        }
        for dir in tree.children[uri] ?? [] {
            w.field("directory", dir.path)
            w.field("Last-Modified", SongWriter.timestamp(dir.modified))
        }
        let tags = SongWriter.Tags(ctx.client.tagTypes)
        for song in songs { SongWriter.write(song, tags: tags, into: &w) }
        for playlist in playlists {
            w.field("playlist", playlist.path)
            w.field("Last-Modified", SongWriter.timestamp(playlist.modified))
        }
    }

    /// `listall [URI]`: the folder URI itself (unless the music folder) and every folder and song path
    /// below it; a song's own path lists that song (as MPD).
    static func listall(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let uri = try MusicPath.normalize(req.arguments.first, command: "listall")
        try writeTree(under: uri, &ctx, &w, directory: { path, _, w in
            w.field("directory", path)
        }, song: { song, out in SongLines.file(song, into: &out) })
    }

    /// `listallinfo [URI]`: the folder URI itself (unless the music folder) and every folder and song
    /// block below it; a song's own path lists that song's block (as MPD).
    static func listallinfo(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let uri = try MusicPath.normalize(req.arguments.first, command: "listallinfo")
        let lines = SongLines(tags: SongWriter.Tags(ctx.client.tagTypes))
        try writeTree(under: uri, &ctx, &w, directory: { path, modified, w in
            w.field("directory", path)
            w.field("Last-Modified", SongWriter.timestamp(modified))
        }, song: { song, out in lines.write(song, into: &out) })
    }

    /// `list TAG [FILTER] [group TAG…]`: the distinct values of TAG among the matching songs, sorted,
    /// grouped by the group tags' values.
    static func list(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let request = try MPDListRequest.parse(req.arguments)
        let songs = try ctx.allSongs(), filter = request.filter.map(SongFilter.init)
        // Distinct (group values…, value) tuples, sorted; a group line is written when it changes.
        var rows = Set<[String]>()
        if request.groups.isEmpty {
            var values = Set<String>()
            songs.forEach(matching: filter) { song in
                let v = SongWriter.values(song, request.tag)
                if v.isEmpty { values.insert("") } else { values.formUnion(v) }
                return true
            }
            rows = Set(values.map { [$0] })
        } else if request.groups.count == 1 {
            // The usual grouped list (albums by album artist): pairs, without an array per song.
            struct Pair: Hashable { let group, value: String }
            var pairs = Set<Pair>()
            songs.forEach(matching: filter) { song in
                let groups = SongWriter.values(song, request.groups[0]), values = SongWriter.values(song, request.tag)
                for g in groups.isEmpty ? [""] : groups {
                    for v in values.isEmpty ? [""] : values { pairs.insert(Pair(group: g, value: v)) }
                }
                return true
            }
            rows = Set(pairs.map { [$0.group, $0.value] })
        } else {
            let tags = request.groups + [request.tag]
            songs.forEach(matching: filter) { song in
                var partial: [[String]] = [[]]
                for tag in tags {
                    let values = SongWriter.values(song, tag)
                    let options = values.isEmpty ? [""] : values
                    partial = partial.flatMap { p in options.map { p + [$0] } }
                }
                rows.formUnion(partial)
                return true
            }
        }
        var last: [String] = []
        for row in rows.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            for (i, tag) in request.groups.enumerated() where last.count <= i || last[i] != row[i] || last.prefix(i) != row.prefix(i) {
                w.field(tag.name, row[i])
            }
            if !row[row.count - 1].isEmpty || request.groups.isEmpty { w.field(request.tag.name, row[row.count - 1]) }
            last = row
        }
    }

    /// `find FILTER [sort TAG] [window START:END]`: the songs that match, case-sensitively.
    static func find(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        try writeMatches(&ctx, req, &w, foldCase: false)
    }

    /// `search FILTER [sort TAG] [window START:END]`: the songs that match, ignoring case.
    static func search(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        try writeMatches(&ctx, req, &w, foldCase: true)
    }

    /// `count FILTER [group TAG]`: how many songs match and their playtime, in all or per value of TAG.
    static func count(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let request = try MPDSearchRequest.parseCount(req.arguments)
        let songs = try ctx.allSongs(), filter = request.filter.map(SongFilter.init)
        guard let group = request.group else {
            var count = 0, playtime = 0
            songs.forEach(matching: filter) { s in
                count += 1
                playtime += s.durationMS
                return true
            }
            w.field("songs", count)
            w.field("playtime", playtime / 1000)
            return
        }
        var totals: [String: (Int, Int)] = [:]
        songs.forEach(matching: filter) { s in
            let values = SongWriter.values(s, group)
            for v in values.isEmpty ? [""] : values {
                totals[v, default: (0, 0)].0 += 1
                totals[v, default: (0, 0)].1 += s.durationMS
            }
            return true
        }
        for (value, t) in totals.sorted(by: { $0.key < $1.key }) {
            w.field(group.name, value)
            w.field("songs", t.0)
            w.field("playtime", t.1 / 1000)
        }
    }

    /// `listplaylists`: the stored playlists, then the music folder's playlist files.
    static func listplaylists(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        try writeStoredPlaylists(&ctx, &w)
        for p in try libraryCall({ try ctx.catalog.playlists() }) {
            w.field("playlist", p.path)
            w.field("Last-Modified", SongWriter.timestamp(p.modified))
        }
    }

    /// The stored playlists, then the smart ones. A smart playlist's content is computed at every
    /// read, so its `Last-Modified` is now: a client that caches playlists by time reads it again.
    private static func writeStoredPlaylists(_ ctx: inout MPDContext, _ w: inout MPDResponseWriter) throws(MPDError) {
        for p in try libraryCall({ try ctx.playlists.all() }) where SmartPlaylist.named(p.name) == nil {
            w.field("playlist", p.name)
            w.field("Last-Modified", SongWriter.timestamp(p.modified))
        }
        let now = Int64(Date().timeIntervalSince1970)
        for smart in SmartPlaylist.allCases {
            w.field("playlist", smart.title)
            w.field("Last-Modified", SongWriter.timestamp(now))
        }
    }

    /// `listplaylist NAME [START:END]`: a playlist's song paths (`playlistSongs`).
    static func listplaylist(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        for song in try playlistSongs(&ctx, req) { w.field("file", song.path) }
    }

    /// `listplaylistinfo NAME [START:END]`: a playlist's song blocks (`playlistSongs`).
    static func listplaylistinfo(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        for song in try playlistSongs(&ctx, req) { SongWriter.write(song, tags: ctx.client.tagTypes, into: &w) }
    }

    /// Writes the folder `uri` and every directory and song below it in MPD's listing order
    /// (`DirectoryStream`), from the songs kept in memory (`LibrarySongs`), as MPD writes from its
    /// in-memory database: the answer streams out through the writer as it is made (a slow reader
    /// pauses it on its connection's own queue, holding no database reader), and stops when its client
    /// is gone. MPD begins with the folder itself (the music folder excepted), and lists a song's own
    /// path as that song.
    private static func writeTree(
        under uri: String, _ ctx: inout MPDContext, _ w: inout MPDResponseWriter,
        directory: (String, Int64, inout MPDResponseWriter) -> Void, song: (SongRecord, inout [UInt8]) -> Void
    ) throws(MPDError) {
        let folders = try ctx.folderRuns(under: uri)
        if folders.isEmpty, !uri.isEmpty {
            guard let id = try libraryCall({ try ctx.catalog.trackID(path: uri) }),
                let one = try libraryCall({ try ctx.catalog.songs(ids: [id]).first })
            else { throw .noExist("No such directory") }
            w.appendLines { song(one, &$0) }
            return
        }
        // The folder's time is its newest song's, as for the folders below it.
        if !uri.isEmpty { directory(uri, folders.map(\.newest).max() ?? 0, &w) }
        var stream = DirectoryStream(base: uri, runs: folders)
        func visit(_ entry: DirectoryTree.Entry) {
            switch entry {
            case .directory(let path, let modified): directory(path, modified, &w)
            case .song(let s): w.appendLines { song(s, &$0) }
            }
        }
        for s in songs(try ctx.allSongs(), under: uri) {
            if w.abandoned { throw .abandoned }
            stream.add(s, visit)
        }
        stream.finish(visit)
    }

    /// The songs under `directory` ("" for all) of the whole library in path order: a slice, found by
    /// bisection (the order is SQLite's, by the paths' bytes).
    static func songs(_ all: [SongRecord], under directory: String) -> ArraySlice<SongRecord> {
        guard !directory.isEmpty else { return all[...] }
        func firstIndex(notBefore bound: String) -> Int {
            var low = 0, high = all.count
            while low < high {
                let mid = (low + high) / 2
                if all[mid].path.utf8.lexicographicallyPrecedes(bound.utf8) { low = mid + 1 } else { high = mid }
            }
            return low
        }
        return all[firstIndex(notBefore: directory + "/")..<firstIndex(notBefore: directory + "0")]
    }

    /// The song blocks of `find`/`search`: streamed in path order as they are found when no sort or window
    /// is asked, else from `matchingSongs`.
    private static func writeMatches(
        _ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter, foldCase: Bool
    ) throws(MPDError) {
        let request = try MPDSearchRequest.parse(req.arguments, foldCase: foldCase, acceptsPosition: false)
        if request.sort == nil, !request.sortDescending, request.window == nil {
            // In path order, as kept: each match is written as it is found (the writer streams).
            let tags = SongWriter.Tags(ctx.client.tagTypes)
            try ctx.allSongs().forEach(matching: request.filter.map(SongFilter.init)) { song in
                SongWriter.write(song, tags: tags, into: &w)
                return !w.abandoned
            }
            if w.abandoned { throw .abandoned }
            return
        }
        for song in try matchingSongs(&ctx, req, foldCase: foldCase).songs {
            SongWriter.write(song, tags: ctx.client.tagTypes, into: &w)
        }
    }

    /// The songs `find`/`search` (and `findadd`/`searchadd`) name, sorted and windowed as asked, and the
    /// request's `position` argument.
    static func matchingSongs(_ ctx: inout MPDContext, _ req: MPDRequest, foldCase: Bool, adding: Bool = false)
        throws(MPDError) -> (songs: [SongRecord], position: MPDArgument?)
    {
        let request = try MPDSearchRequest.parse(req.arguments, foldCase: foldCase, acceptsPosition: adding)
        var songs = try ctx.allSongs().matching(request.filter.map(SongFilter.init))
        switch request.sort {
        case .tag(let tag)?:
            // Each song's key made once, not twice per comparison.
            songs = songs.map { (key: SongWriter.values($0, tag).first ?? "", song: $0) }.sorted { $0.key < $1.key }.map(\.song)
        case .lastModified?:
            songs.sort { $0.modified < $1.modified }
        case nil:
            break
        }
        if request.sortDescending { songs.reverse() }
        if let window = request.window {
            // A window past the matches is an empty answer, as in MPD (no `Bad song index`).
            songs = Array(songs[window.clampedOrEmpty(toCount: songs.count)])
        }
        return (songs, request.position)
    }

    /// The songs of the playlist the first argument names: a stored playlist by name, else one of the
    /// music folder's playlist files by path (or by name); the second argument is an optional range.
    static func playlistSongs(_ ctx: inout MPDContext, _ req: MPDRequest) throws(MPDError) -> [SongRecord] {
        var ids: [Int64]?
        if let name = req.arguments[0].validString, let smart = SmartPlaylist.named(name) {
            ids = try libraryCall { try ctx.catalog.smartPlaylist(smart) }
        } else if let stored = req.arguments[0].validString {
            ids = try libraryCall { try ctx.playlists.tracks(stored) }
        }
        if ids == nil {
            let name = try MusicPath.normalize(req.arguments[0], command: "listplaylist")
            let files = try libraryCall { try ctx.catalog.playlists() }
            if let p = files.first(where: { $0.path == name || $0.name == name }) {
                ids = try libraryCall { try ctx.catalog.playlistTracks(path: p.path) }
            }
        }
        guard let ids else { throw .noExist("No such playlist") }
        var songs = try libraryCall { try ctx.catalog.songs(ids: ids) }
        if req.arguments.count > 1 {
            guard let range = try req.arguments[1].range().clamped(toCount: songs.count) else { throw .argument("Bad song index") }
            songs = Array(songs[range])
        }
        return songs
    }
}
