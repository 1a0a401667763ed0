import Library
import MPDProtocol

/// Stored playlists, kept in the library database (the music folder's .m3u files are read-only). After
/// each change the engine is told (`PlayerStateSource.libraryEdited`), so idle clients hear of it.
extension ControlCommands {
    /// `save NAME`: stores the queue as a new playlist.
    static func save(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let name = try playlistName(req.arguments[0])
        let tracks = ctx.player().queue.tracks
        try libraryCall { try ctx.playlists.create(name, tracks: tracks) }
        ctx.playerSource.libraryEdited(.storedPlaylist)
    }

    /// `rm NAME`: deletes a stored playlist.
    static func rm(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let name = try playlistName(req.arguments[0], checked: false)
        try libraryCall { try ctx.playlists.remove(name) }
        ctx.playerSource.libraryEdited(.storedPlaylist)
    }

    /// `rename NAME NEW_NAME`.
    static func rename(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let (from, to) = (try playlistName(req.arguments[0], checked: false), try playlistName(req.arguments[1]))
        let playlists = ctx.playlists
        do throws(MPDError) {
            try libraryCall { try playlists.rename(from, to: to) }
        } catch {
            // MPD words it differently here than for save.
            throw error.code == .exist ? .exist("Playlist exists already") : error
        }
        ctx.playerSource.libraryEdited(.storedPlaylist)
    }

    /// `playlistadd NAME URI [POSITION]`: adds the song or folder at URI, at the end or at POSITION.
    static func playlistadd(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let name = try playlistName(req.arguments[0])
        let uri = try MusicPath.normalize(req.arguments[1], command: "playlistadd")
        let tracks = try libraryCall { try ctx.catalog.trackIDs(uri: uri) }
        guard !tracks.isEmpty else { throw .noExist("No such directory") }
        let position = try req.arguments.dropFirst(2).first.map { a throws(MPDError) in Int(try a.unsigned()) }
        try libraryCall { try ctx.playlists.add(tracks, to: name, at: position) }
        ctx.playerSource.libraryEdited(.storedPlaylist)
    }

    /// `playlistclear NAME`: empties a stored playlist.
    static func playlistclear(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        let name = try playlistName(req.arguments[0], checked: false)
        try libraryCall { try ctx.playlists.edit(name) { $0.removeAll() } }
        ctx.playerSource.libraryEdited(.storedPlaylist)
    }

    /// `playlistdelete NAME SONGPOS|START:END`: removes an entry or a range.
    static func playlistdelete(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        let name = try playlistName(req.arguments[0], checked: false)
        let r = try req.arguments[1].range()
        try libraryCall {
            try ctx.playlists.edit(name) { (list: inout [Int64?]) throws(StoredPlaylists.Failure) in
                guard r.start < list.count else { throw .badIndex }
                list.removeSubrange(r.start..<min(r.end ?? list.count, list.count))
            }
        }
        ctx.playerSource.libraryEdited(.storedPlaylist)
    }

    /// `playlistmove NAME FROM TO`: moves one entry.
    static func playlistmove(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        let name = try playlistName(req.arguments[0], checked: false)
        let (from, to) = (Int(try req.arguments[1].unsigned()), Int(try req.arguments[2].unsigned()))
        try libraryCall {
            try ctx.playlists.edit(name) { (list: inout [Int64?]) throws(StoredPlaylists.Failure) in
                guard from < list.count, to < list.count else { throw .badIndex }
                list.insert(list.remove(at: from), at: to)
            }
        }
        ctx.playerSource.libraryEdited(.storedPlaylist)
    }

    /// A playlist name: text without `/`, not empty (MPD: "Bad playlist name"). MPD strips control
    /// characters from names (`save "x\nbad"` makes `xnbad`); we keep printable text only.
    static func playlistName(_ argument: MPDArgument, checked: Bool = true) throws(MPDError) -> String {
        guard let text = argument.validString else { throw .argument("Bad playlist name") }
        let name = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        if checked, name.isEmpty || name.contains("/") { throw .argument("Bad playlist name") }
        return name
    }
}
