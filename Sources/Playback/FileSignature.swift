import Foundation

/// Reading and recognising the first bytes of a file, for `Decoders.open`.
///
/// Thread rules: pure functions and one blocking read; the audio thread.
enum FileSignature {
    /// The file's first bytes, past an ID3v2 tag if it starts with one (`pread`).
    static func head(of track: AudioTrack) throws(PlaybackError) -> FileHead {
        let fd = (track.pathBytes + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else {
            throw PlaybackError("cannot open \(track.path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var first = read(fd, at: 0, count: 64)
        var id3 = false
        if first.count >= 10, first.starts(with: Array("ID3".utf8)), first[6..<10].allSatisfy({ $0 < 0x80 }) {
            // ID3v2 size: four syncsafe bytes, plus the 10-byte header and a 10-byte footer if flagged.
            let size = first[6..<10].reduce(0) { $0 << 7 | Int($1) } + 10 + (first[5] & 0x10 != 0 ? 10 : 0)
            first = read(fd, at: size, count: 64)
            id3 = true
        }
        return FileHead(bytes: first, id3: id3)
    }

    private static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        return Array(bytes.prefix(max(0, n)))
    }

    /// The lower-cased suffix of a file name (after the last dot of its last component), "" if none.
    static func suffix(of path: [UInt8]) -> String {
        let name = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).last ?? []
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return "" }
        return String(decoding: name[name.index(after: dot)...], as: UTF8.self).lowercased()
    }

    /// True for a container another plugin plays (FLAC, Ogg, MP4, RIFF, IFF): not MPEG audio.
    static func isOtherContainer(_ head: FileHead) -> Bool {
        head.has("fLaC") || head.has("OggS") || head.has("ftyp", at: 4) || head.has("RIFF") || head.has("FORM")
    }

    /// An ADTS header (raw AAC): a 12-bit sync and layer bits 00, which MPEG audio never has.
    static func isADTS(_ head: FileHead) -> Bool {
        head.bytes.count >= 2 && head.bytes[0] == 0xFF && head.bytes[1] & 0xF6 == 0xF0
    }
}
