import Foundation
import Library
import MPDProtocol

/// The music folder's files as they are on disk, searches of the queue, and the connection's password.
extension ControlCommands {
    /// `listfiles [URI]`: the folder as it is on disk, songs or not; never outside the music folder
    /// (MPD 0.23.12 lists `..` and `/etc` here; we refuse them, and symlinks that lead out, with ACK 50).
    static func listfiles(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let uri = try MusicPath.normalize(req.arguments.first, command: "listfiles")
        let root = URL(fileURLWithPath: ctx.musicFolder).resolvingSymlinksInPath().path
        let folder = URL(fileURLWithPath: ctx.musicFolder + (uri.isEmpty ? "" : "/" + uri)).resolvingSymlinksInPath().path
        guard folder == root || folder.hasPrefix(root + "/"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { throw .noExist("No such directory") }
        for name in names.sorted() where !name.hasPrefix(".") {
            guard let a = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name) else { continue }
            let modified = Int64((a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
            if a[.type] as? FileAttributeType == .typeDirectory {
                w.field("directory", name)
            } else {
                w.field("file", name)
                w.field("size", (a[.size] as? Int) ?? 0)
            }
            w.field("Last-Modified", SongWriter.timestamp(modified))
        }
    }

    /// `playlistfind FILTER`: the queue entries whose songs match, case-sensitively.
    static func playlistfind(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        try queueSearch(&ctx, req, &w, foldCase: false)
    }

    /// `playlistsearch FILTER`: the queue entries whose songs match, ignoring case.
    static func playlistsearch(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        try queueSearch(&ctx, req, &w, foldCase: true)
    }

    /// `password PASSWORD`: with the server's password, every permission; a wrong one is refused.
    static func password(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        guard let password = ctx.password, req.arguments[0].equals(password) else {
            throw MPDError(.password, "incorrect password")
        }
        ctx.client.permission = .all
    }

    /// The queue entries whose songs match a find/search filter, as song blocks with Pos and Id.
    static func queueSearch(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter, foldCase: Bool)
        throws(MPDError)
    {
        let request = try MPDSearchRequest.parse(req.arguments, foldCase: foldCase)
        let p = ctx.player()
        let songs = try libraryCall { try ctx.catalog.songs(ids: Array(Set(p.queue.tracks))) }
        let byID = Dictionary(songs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let filter = request.filter.map { SongFilter($0) }
        let positions = p.queue.indices.filter { i in
            guard let song = byID[p.queue[i].track] else { return false }
            return filter?.matches(song) ?? true
        }
        try writeEntries(positions, of: p.queue, &ctx, &w)
    }
}
