import Foundation
import Library
import MPDProtocol

/// Cover art in MPD's chunked binary replies (`OFFSET` stepping through `size`), the chunk size
/// (`binarylimit`), and `config`.
extension ControlCommands {
    /// `binarylimit SIZE`: the largest binary chunk this connection gets, 64 bytes to `binaryLimitMax`.
    static func binarylimit(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let limit = Int(try req.arguments[0].unsigned(max: UInt64(binaryLimitMax)))
        guard limit >= 64 else { throw .argument("Value too small") }
        ctx.client.binaryLimit = limit
    }

    /// `albumart URI OFFSET`: a cover file in the song's folder (`coverNames`).
    static func albumart(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let offset = Int(try req.arguments[1].unsigned(max: UInt64(Int32.max)))
        guard let uri = try? MusicPath.normalize(req.arguments[0], command: "albumart"), !uri.isEmpty,
            let file = try libraryCall({ try ctx.catalog.file(path: uri) }),
            let cover = coverFile(folder: Array(ctx.musicFolder.utf8) + [slash] + parent(of: file))
        else { throw .noExist("No file exists") }
        try sendChunk(of: cover, from: 0, size: nil, offset: offset, mime: nil, ctx.client.binaryLimit, &w)
    }

    /// `readpicture URI OFFSET`: the picture embedded in the song; a bare `OK` when it has none.
    static func readpicture(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let offset = Int(try req.arguments[1].unsigned(max: UInt64(Int32.max)))
        guard let uri = try? MusicPath.normalize(req.arguments[0], command: "readpicture"), !uri.isEmpty,
            let art = try libraryCall({ try ctx.catalog.artwork(path: uri) })
        else { throw .noExist("No such song") }
        guard let picture = art.picture else {
            // A picture stored encoded (Ogg's base64 METADATA_BLOCK_PICTURE), read again; else none:
            // a bare OK, as in MPD.
            guard let encoded = EmbeddedPictures.read(path: Array(ctx.musicFolder.utf8) + [slash] + art.file) else {
                return
            }
            let total = encoded.bytes.count
            guard offset <= total else { throw .argument("Offset too large") }
            w.field("size", total)
            w.field("type", encoded.mime)
            w.binary(Data(encoded.bytes[offset..<min(total, offset + ctx.client.binaryLimit)]))
            return
        }
        try sendChunk(
            of: Array(ctx.musicFolder.utf8) + [slash] + art.file, from: picture.offset, size: picture.size, offset: offset,
            mime: picture.mime, ctx.client.binaryLimit, &w)
    }

    /// `config`: the music folder, for local clients only (as in MPD).
    static func config(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        guard ctx.client.isLocal else { throw MPDError(.permission, "Command only permitted to local clients") }
        w.field("music_directory", ctx.musicFolder)
    }

    /// The largest `binarylimit`: MPD's rule, a client's output limit less 4 KiB, so that one chunk
    /// and its header fit under what a connection may owe (`ControlServer.Limits.maxOutputBytes`).
    static let binaryLimitMax = ControlServer.Limits().maxOutputBytes - 4096

    /// The names MPD looks for in a song's folder, in order.
    static let coverNames = ["cover.png", "cover.jpg", "cover.jpeg", "cover.webp", "cover.tiff", "cover.bmp",
                             "Cover.png", "Cover.jpg", "folder.jpg", "Folder.jpg", "folder.png", "front.jpg"]

    static let slash = UInt8(ascii: "/")

    /// Paths here are file-system bytes, not text: a folder or file name that is not valid UTF-8
    /// (its text form holds U+FFFD) is still found and read.
    static func coverFile(folder: [UInt8]) -> [UInt8]? {
        coverNames.lazy.map { folder + [slash] + Array($0.utf8) }.first { withCString($0) { access($0, R_OK) == 0 } }
    }

    /// The folder part of a relative path ("" at the top).
    static func parent(of path: [UInt8]) -> [UInt8] {
        path.lastIndex(of: slash).map { Array(path[..<$0]) } ?? []
    }

    static func withCString<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    /// `size: TOTAL`, `type:` (readpicture), `binary: N` and the N bytes of `bytes` (a path) starting at
    /// `start + offset` (`size` nil: the whole file).
    static func sendChunk(
        of bytes: [UInt8], from start: Int64, size: Int?, offset: Int, mime: String?, _ limit: Int,
        _ w: inout MPDResponseWriter
    ) throws(MPDError) {
        let path = String(decoding: bytes, as: UTF8.self)
        let fd = withCString(bytes) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw .noExist("No file exists") }
        let file = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
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
