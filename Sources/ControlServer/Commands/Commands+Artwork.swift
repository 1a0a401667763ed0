import Foundation
import Library
import MPDProtocol

extension ControlCommands {
    /// albumart (a cover file in the song's folder), readpicture (the embedded picture), binarylimit,
    /// config: MPD's chunked binary replies, `OFFSET` stepping through `size`.
    static var artworkCommands: [MPDCommand<MPDContext>] {
        [
            MPDCommand("binarylimit", .exactly(1), permission: .read) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                let limit = Int(try req.arguments[0].unsigned(max: 16_777_215))
                guard limit >= 64 else { throw .argument("Value too small") }
                ctx.client.binaryLimit = limit
            },
            MPDCommand("albumart", .exactly(2), permission: .read) { (ctx: inout MPDContext, req, w: inout MPDResponseWriter) throws(MPDError) in
                let offset = Int(try req.arguments[1].unsigned(max: UInt64(Int32.max)))
                guard let uri = try? MusicPath.normalize(req.arguments[0], command: "albumart"), !uri.isEmpty,
                    try libraryCall({ try ctx.catalog.trackID(path: uri) }) != nil,
                    let cover = coverFile(folder: ctx.musicFolder + "/" + DirectoryTree.parent(of: uri))
                else { throw .noExist("No file exists") }
                try sendChunk(of: cover, from: 0, size: nil, offset: offset, mime: nil, ctx.client.binaryLimit, &w)
            },
            MPDCommand("readpicture", .exactly(2), permission: .read) { (ctx: inout MPDContext, req, w: inout MPDResponseWriter) throws(MPDError) in
                let offset = Int(try req.arguments[1].unsigned(max: UInt64(Int32.max)))
                guard let uri = try? MusicPath.normalize(req.arguments[0], command: "readpicture"), !uri.isEmpty,
                    let art = try libraryCall({ try ctx.catalog.artwork(path: uri) })
                else { throw .noExist("No such song") }
                guard let picture = art.picture else { return }  // no picture: a bare OK, as in MPD
                try sendChunk(
                    of: ctx.musicFolder + "/" + uri, from: picture.offset, size: picture.size, offset: offset,
                    mime: picture.mime, ctx.client.binaryLimit, &w)
            },
            MPDCommand("config", .none, permission: .admin) { (ctx: inout MPDContext, _, w: inout MPDResponseWriter) throws(MPDError) in
                guard ctx.client.isLocal else { throw MPDError(.permission, "Command only permitted to local clients") }
                w.field("music_directory", ctx.musicFolder)
            },
        ]
    }

    /// The names MPD looks for in a song's folder, in order.
    static let coverNames = ["cover.png", "cover.jpg", "cover.jpeg", "cover.webp", "cover.tiff", "cover.bmp",
                             "Cover.png", "Cover.jpg", "folder.jpg", "Folder.jpg", "folder.png", "front.jpg"]

    static func coverFile(folder: String) -> String? {
        coverNames.lazy.map { folder + "/" + $0 }.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// `size: TOTAL`, `type:` (readpicture), `binary: N` and the N bytes of `path` starting at
    /// `start + offset` (`size` nil: the whole file).
    static func sendChunk(
        of path: String, from start: Int64, size: Int?, offset: Int, mime: String?, _ limit: Int,
        _ w: inout MPDResponseWriter
    ) throws(MPDError) {
        guard let file = FileHandle(forReadingAtPath: path) else { throw .noExist("No file exists") }
        defer { try? file.close() }
        let total: Int
        if let size {
            total = size
        } else {
            guard let end = try? file.seekToEnd() else { throw .system("cannot read \(path)") }
            total = Int(end)
        }
        guard offset <= total else { throw .argument("Offset too large") }
        let count = min(limit, total - offset)
        var data = Data()
        if count > 0 {
            do {
                try file.seek(toOffset: UInt64(start) + UInt64(offset))
                data = try file.read(upToCount: count) ?? Data()
            } catch {
                throw .system("cannot read \(path): \(error.localizedDescription)")
            }
        }
        w.field("size", total)
        if let mime { w.field("type", mime) }
        w.binary(data)
    }
}
