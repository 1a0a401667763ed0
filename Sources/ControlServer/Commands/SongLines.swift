import Foundation
import Library
import MPDProtocol

/// `SongWriter.write`'s lines for listings read straight from the database row (`listallinfo`,
/// `listall`): each value's bytes go from SQLite's buffer to the output, the key prefixes are
/// constants, numbers and time stamps are written as digits in place. The bytes are the ones
/// `SongWriter.write` gives for the `SongRecord` of the same row.
struct SongLines {
    let tags: SongWriter.Tags

    init(tags: SongWriter.Tags) { self.tags = tags }

    /// The song's block, as `SongWriter.write(record, tags:)` writes it.
    func write(_ s: ListedSong, into out: inout [UInt8]) {
        Self.line(Self.file, s.text(.path), into: &out)
        Self.append(Self.lastModified, into: &out)
        Self.timestamp((s.integer(.modifiedNS) ?? 0) / 1_000_000_000, into: &out)
        out.append(Self.newline)
        let rate = s.integer(.sampleRate) ?? 0
        if rate > 0 {
            Self.append(Self.format, into: &out)
            Self.integer(rate, into: &out)
            Self.append(Self.sixteen, into: &out)
            Self.integer(s.integer(.channels) ?? 0, into: &out)
            out.append(Self.newline)
        }
        if tags.artist { list(s, "artist", .artist, Self.artist, into: &out) }
        if tags.albumArtist { list(s, "album_artist", .albumArtist, Self.albumArtist, into: &out) }
        if tags.title { Self.line(Self.title, s.text(.title), into: &out) }
        if tags.album { Self.line(Self.album, s.text(.album), into: &out) }
        if tags.track, let t = s.integer(.trackNumber) { Self.line(Self.track, t, into: &out) }
        if tags.date, let v = s.text(.date) { Self.line(Self.date, v, into: &out) }
        if tags.genre { list(s, "genre", .genre, Self.genre, into: &out) }
        if tags.composer { list(s, "composer", .composer, Self.composer, into: &out) }
        if tags.disc, let d = s.integer(.discNumber) { Self.line(Self.disc, d, into: &out) }
        if tags.artistSort, let v = s.text(.sortArtist) { Self.line(Self.artistSort, v, into: &out) }
        if tags.albumSort, let v = s.text(.sortAlbum) { Self.line(Self.albumSort, v, into: &out) }
        if tags.albumArtistSort, let v = s.text(.sortAlbumArtist) { Self.line(Self.albumArtistSort, v, into: &out) }
        if tags.comment, let v = s.text(.comment) { Self.line(Self.comment, v, into: &out) }
        if tags.musicBrainzTrackID, let v = s.text(.musicBrainzTrackID) { Self.line(Self.musicBrainzTrackID, v, into: &out) }
        let ms = Int(s.integer(.durationMS) ?? 0)
        Self.line(Self.time, Int64((ms + 500) / 1000), into: &out)
        Self.append(Self.duration, into: &out)
        Self.seconds(ms: ms, into: &out)
        out.append(Self.newline)
    }

    /// `file: path` alone (`listall`).
    static func file(_ s: ListedSong, into out: inout [UInt8]) {
        line(file, s.text(.path), into: &out)
    }

    /// A multi-valued tag: its values when the song has several (`ListedSong.multiValues`), else the column's.
    private func list(_ s: ListedSong, _ field: String, _ column: ListedSong.Column, _ key: StaticString, into out: inout [UInt8]) {
        if let many = s.multiValues?[field] {
            for v in many {
                Self.append(key, into: &out)
                MPDValueSanitizer.append(v, to: &out)
                out.append(Self.newline)
            }
        } else if let v = s.text(column) {
            Self.line(key, v, into: &out)
        }
    }

    static let newline = UInt8(ascii: "\n")
    // The keys as static strings: appending one is a copy of constant bytes, no array to retain.
    static let file: StaticString = "file: ", lastModified: StaticString = "Last-Modified: ", format: StaticString = "Format: "
    static let sixteen: StaticString = ":16:"
    static let artist: StaticString = "Artist: ", albumArtist: StaticString = "AlbumArtist: ", title: StaticString = "Title: "
    static let album: StaticString = "Album: ", track: StaticString = "Track: ", date: StaticString = "Date: "
    static let genre: StaticString = "Genre: ", composer: StaticString = "Composer: ", disc: StaticString = "Disc: "
    static let artistSort: StaticString = "ArtistSort: ", albumSort: StaticString = "AlbumSort: "
    static let albumArtistSort: StaticString = "AlbumArtistSort: ", comment: StaticString = "Comment: "
    static let musicBrainzTrackID: StaticString = "MUSICBRAINZ_TRACKID: ", time: StaticString = "Time: "
    static let duration: StaticString = "duration: "

    /// `key: value\n` for a text column (nothing when NULL is not written by the caller: a NULL here is
    /// an empty value, as a NOT NULL column read as "" would be).
    @inline(__always)
    static func line(_ key: StaticString, _ value: UnsafeBufferPointer<UInt8>?, into out: inout [UInt8]) {
        append(key, into: &out)
        if let value { append(value, into: &out) }
        out.append(newline)
    }

    @inline(__always)
    static func line(_ key: StaticString, _ value: Int64, into out: inout [UInt8]) {
        append(key, into: &out)
        integer(value, into: &out)
        out.append(newline)
    }

    @inline(__always)
    static func append(_ key: StaticString, into out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    }

    /// A text value as `MPDValueSanitizer.append(String(cString:))` gives it: SQLite's bytes as they
    /// are when they are valid UTF-8 without control bytes (the usual case, checked in one pass), else
    /// through the string.
    @inline(__always)
    static func append(_ value: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var ascii = true
        for byte in value {
            if byte < 0x20 { return slow(value, into: &out) }
            if byte >= 0x80 { ascii = false }
        }
        if ascii || isValidUTF8(value) {
            out.append(contentsOf: value)
        } else {
            slow(value, into: &out)
        }
    }

    private static func slow(_ value: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        // SQLite's text is NUL-terminated: what GRDB's String reads (up to a NUL, invalid UTF-8 repaired).
        let string = value.baseAddress.map { String(cString: $0) } ?? ""
        MPDValueSanitizer.append(string, to: &out)
    }

    /// Whether `bytes` is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard i + length <= n, (low...high).contains(bytes[i + 1]) else { return false }
            for k in 2..<length where !(0x80...0xBF).contains(bytes[i + k]) { return false }
            i += length
        }
        return true
    }

    /// `String(n)`'s digits.
    @inline(__always)
    static func integer(_ n: Int64, into out: inout [UInt8]) {
        if n < 0 {
            out.append(contentsOf: String(n).utf8)
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = UInt64(n)
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[20 - count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(20 - count)...]))
        }
    }

    /// `SongWriter.seconds(ms:)`'s digits.
    static func seconds(ms: Int, into out: inout [UInt8]) {
        let ms = max(0, ms)
        guard ms / 1000 < 1_000_000_000 else {
            out.append(contentsOf: SongWriter.seconds(ms: ms).utf8)
            return
        }
        integer(Int64(ms / 1000), into: &out)
        let frac = ms % 1000
        out.append(UInt8(ascii: "."))
        out.append(UInt8(ascii: "0") + UInt8(frac / 100))
        out.append(UInt8(ascii: "0") + UInt8(frac / 10 % 10))
        out.append(UInt8(ascii: "0") + UInt8(frac % 10))
    }

    /// `SongWriter.timestamp(unix)`'s bytes.
    static func timestamp(_ unix: Int64, into out: inout [UInt8]) {
        var t = time_t(unix)
        var tm = tm()
        gmtime_r(&t, &tm)
        let year = Int(tm.tm_year) + 1900
        guard (0...9999).contains(year) else {
            out.append(contentsOf: SongWriter.timestamp(unix).utf8)
            return
        }
        func two(_ n: Int32) {
            out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: n / 10))
            out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: n % 10))
        }
        two(Int32(year / 100))
        two(Int32(year % 100))
        out.append(UInt8(ascii: "-"))
        two(tm.tm_mon + 1)
        out.append(UInt8(ascii: "-"))
        two(tm.tm_mday)
        out.append(UInt8(ascii: "T"))
        two(tm.tm_hour)
        out.append(UInt8(ascii: ":"))
        two(tm.tm_min)
        out.append(UInt8(ascii: ":"))
        two(tm.tm_sec)
        out.append(UInt8(ascii: "Z"))
    }
}
