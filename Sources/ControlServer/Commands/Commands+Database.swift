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
        let songs = tree.times[uri] == nil ? [] : Self.songs(try ctx.songTable().songs, directlyIn: uri)
        let all = try ctx.allPlaylists()
        let playlists = all.files.filter { DirectoryTree.parent(of: $0.path) == uri }
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
            writeStoredPlaylists(all.stored, &w)
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
    ///
    /// Without a group or with one, from the tags' columns (`TagColumn`): value numbers sort as the
    /// values do, so the distinct numbers (or pairs of numbers) in order are the answer's rows in order.
    static func list(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let request = try MPDListRequest.parse(req.arguments)
        let table = try ctx.songTable(), filter = request.filter.map { SongFilter($0, table: table) }
        let column = table.column(request.tag)
        if request.groups.isEmpty {
            var seen = [Bool](repeating: false, count: column.values.count)
            table.forEach(matching: filter) { i in
                column.forEachNumber(of: i) { seen[Int($0)] = true }
                return true
            }
            for (n, value) in column.values.enumerated() where seen[n] { w.field(request.tag.name, value) }
        } else if request.groups.count == 1 {
            // The usual grouped list (albums by album artist): (group, value) number pairs in one integer.
            let groups = table.column(request.groups[0])
            var pairs = Set<UInt64>()
            table.forEach(matching: filter) { i in
                groups.forEachNumber(of: i) { g in
                    column.forEachNumber(of: i) { v in pairs.insert(UInt64(UInt32(g)) << 32 | UInt64(UInt32(v))) }
                }
                return true
            }
            var last: UInt64?
            for pair in pairs.sorted() {
                let g = Int(pair >> 32), v = Int(pair & 0xFFFF_FFFF)
                if last.map({ $0 >> 32 }) != pair >> 32 { w.field(request.groups[0].name, groups.values[g]) }
                if !column.values[v].isEmpty { w.field(request.tag.name, column.values[v]) }
                last = pair
            }
        } else {
            // Distinct (group values…, value) tuples, sorted; a group line is written when it changes.
            var rows = Set<[String]>()
            let tags = request.groups + [request.tag]
            table.forEach(matching: filter) { i in
                let song = table.songs[i]
                var partial: [[String]] = [[]]
                for tag in tags {
                    let values = SongWriter.values(song, tag)
                    let options = values.isEmpty ? [""] : values
                    partial = partial.flatMap { p in options.map { p + [$0] } }
                }
                rows.formUnion(partial)
                return true
            }
            var last: [String] = []
            for row in rows.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                for (i, tag) in request.groups.enumerated()
                where last.count <= i || last[i] != row[i] || last.prefix(i) != row.prefix(i) {
                    w.field(tag.name, row[i])
                }
                if !row[row.count - 1].isEmpty { w.field(request.tag.name, row[row.count - 1]) }
                last = row
            }
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
        let table = try ctx.songTable(), filter = request.filter.map { SongFilter($0, table: table) }
        guard let group = request.group else {
            var count = 0, playtime = 0
            table.forEach(matching: filter) { i in
                count += 1
                playtime += table.songs[i].durationMS
                return true
            }
            w.field("songs", count)
            w.field("playtime", playtime / 1000)
            return
        }
        // Totals by value number: in number order, they come sorted by value.
        let column = table.column(group)
        var songs = [Int](repeating: 0, count: column.values.count), playtime = songs
        table.forEach(matching: filter) { i in
            let duration = table.songs[i].durationMS
            column.forEachNumber(of: i) { n in
                songs[Int(n)] += 1
                playtime[Int(n)] += duration
            }
            return true
        }
        for (n, value) in column.values.enumerated() where songs[n] > 0 {
            w.field(group.name, value)
            w.field("songs", songs[n])
            w.field("playtime", playtime[n] / 1000)
        }
    }

    /// `listplaylists`: the stored playlists, then the music folder's playlist files.
    static func listplaylists(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        let all = try ctx.allPlaylists()
        writeStoredPlaylists(all.stored, &w)
        for p in all.files {
            w.field("playlist", p.path)
            w.field("Last-Modified", SongWriter.timestamp(p.modified))
        }
    }

    /// The stored playlists, then the smart ones. A smart playlist's content is computed at every
    /// read, so its `Last-Modified` is now: a client that caches playlists by time reads it again.
    private static func writeStoredPlaylists(
        _ stored: [(name: String, modified: Int64)], _ w: inout MPDResponseWriter
    ) {
        for p in stored where SmartPlaylist.named(p.name) == nil {
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

    /// The songs of the whole library (in path order) that lie in `directory` itself, not below it.
    static func songs(_ all: [SongRecord], directlyIn directory: String) -> [SongRecord] {
        let below = directory.isEmpty ? all[...] : songs(all, under: directory)
        let skip = directory.isEmpty ? 0 : directory.utf8.count + 1
        return below.filter { !$0.path.utf8.dropFirst(skip).contains(UInt8(ascii: "/")) }
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
            let table = try ctx.songTable()
            table.forEach(matching: request.filter.map { SongFilter($0, table: table) }) { i in
                SongWriter.write(table.songs[i], tags: tags, into: &w)
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
        let table = try ctx.songTable(), all = table.songs
        var matches: [Int] = []
        table.forEach(matching: request.filter.map { SongFilter($0, table: table) }) { i in
            matches.append(i)
            return true
        }
        switch request.sort {
        case .tag(let tag)?:
            // By the first value's number, which sorts as the value does (a song without the tag has "").
            let column = table.column(tag)
            matches = matches.map { (key: column.firstNumber(of: $0), song: $0) }.sorted { $0.key < $1.key }.map(\.song)
        case .lastModified?:
            matches.sort { all[$0].modified < all[$1].modified }
        case nil:
            break
        }
        if request.sortDescending { matches.reverse() }
        if let window = request.window {
            // A window past the matches is an empty answer, as in MPD (no `Bad song index`).
            matches = Array(matches[window.clampedOrEmpty(toCount: matches.count)])
        }
        return (matches.map { all[$0] }, request.position)
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
