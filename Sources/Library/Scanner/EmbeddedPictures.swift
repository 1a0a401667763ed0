import AudioFormats
import Glibc

/// A picture a file stores encoded rather than as bytes in place (a Vorbis comment's base64
/// `METADATA_BLOCK_PICTURE` in Ogg Vorbis, Opus or Ogg FLAC): read again from the file's headers when a
/// client asks for it, since the index keeps only where in-place pictures lie.
///
/// Thread rules: any thread that may block (a file read); keeps no state.
public enum EmbeddedPictures {
    /// The front cover (else the first picture) of the file at `path` (raw bytes, absolute): its MIME
    /// type and bytes; nil when the file has none, is no format of ours, or cannot be read.
    public static func read(path: [UInt8]) -> (mime: String, bytes: [UInt8])? {
        let fd = (path + [0]).withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, let file = try? FileReader(fd: fd, size: Int(st.st_size)),
            AudioFileReader.container(ofPrefix: file.prefix) != nil,
            let info = try? AudioFileReader.read(FormatTrackReader.FileSource(file: file)),
            let picture = info.pictures.first(where: { $0.type == 3 }) ?? info.pictures.first
        else { return nil }
        let mime = picture.mime.isEmpty ? "image/jpeg" : picture.mime
        switch picture.location {
        case .bytes(let bytes): return (mime, bytes)
        case .range(let r): return (try? file.read(at: r.lowerBound, count: r.count)).map { (mime, $0) }
        }
    }
}
