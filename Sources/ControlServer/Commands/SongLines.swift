import Foundation
import Library
import MPDProtocol

/// `SongWriter.write`'s lines for the long listings (`listallinfo`, `listall`), written in bulk: each
/// value's bytes are checked and copied in one pass into one block buffer (`isPlain`), the key
/// prefixes are constants, numbers and time stamps are written as digits in place. The bytes are the
/// ones `SongWriter.write` gives for the same record.
final class SongLines {
    let tags: SongWriter.Tags
    /// Where a song's block is written before it goes to the output in one copy (grown as needed).
    private var scratch: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The last `Last-Modified` value written (`SongWriter.writeTimestamp`'s 20 bytes) and its second:
    /// the songs of an album were mostly written to disk in the same second, and they come one after
    /// another, so most songs copy it instead of asking `gmtime_r` again.
    private let stamp: UnsafeMutablePointer<UInt8>
    private var stampSecond: Int64?

    init(tags: SongWriter.Tags) {
        self.tags = tags
        capacity = 4096
        scratch = .allocate(capacity: capacity)
        stamp = .allocate(capacity: 20)
    }

    deinit {
        scratch.deallocate()
        stamp.deallocate()
    }

    /// The song's block, as `SongWriter.write(s, tags:)` writes it.
    func write(_ s: SongRecord, into out: inout [UInt8]) {
        let t = tags
        // At most: the keys and numbers (under 512 bytes), each value three times over (a control byte
        // is one byte and becomes a space; kept generous) with its key and newline.
        var bound = 512 + 3 * s.path.utf8.count
        @inline(__always) func room(_ v: String?) { if let v { bound += 3 * v.utf8.count + 24 } }
        for v in s.artists { room(v) }
        for v in s.albumArtists { room(v) }
        for v in s.genres { room(v) }
        for v in s.composers { room(v) }
        room(s.title)
        room(s.album)
        room(s.date)
        room(s.sortArtist)
        room(s.sortAlbum)
        room(s.sortAlbumArtist)
        room(s.comment)
        room(s.musicBrainzTrackID)
        if bound > capacity {
            scratch.deallocate()
            capacity = bound
            scratch = .allocate(capacity: capacity)
        }
        var o = RawOutput(scratch)
        o.line(Self.file, s.path)
        o.put(Self.lastModified)
        if s.modified == stampSecond {
            o.put(UnsafeBufferPointer(start: stamp, count: 20))
        } else if let n = SongWriter.writeTimestamp(s.modified, at: o.position) {
            stamp.update(from: o.position, count: n)
            stampSecond = s.modified
            o.skip(n)
        } else {
            o.timestamp(s.modified)
        }
        o.put(Self.newline)
        if s.sampleRate > 0 {
            o.put(Self.format)
            o.integer(Int64(s.sampleRate))
            if s.sampleFormat == "16" {
                o.put(Self.sixteen)
            } else {
                o.put(Self.colon)
                o.value(s.sampleFormat)
                o.put(Self.colon)
            }
            o.integer(Int64(s.channels))
            o.put(Self.newline)
        }
        if t.artist { for v in s.artists { o.line(Self.artist, v) } }
        if t.albumArtist { for v in s.albumArtists { o.line(Self.albumArtist, v) } }
        if t.title { o.line(Self.title, s.title) }
        if t.album { o.line(Self.album, s.album) }
        if t.track, let n = s.trackNumber { o.line(Self.track, Int64(n)) }
        if t.date, let v = s.date { o.line(Self.date, v) }
        if t.genre { for v in s.genres { o.line(Self.genre, v) } }
        if t.composer { for v in s.composers { o.line(Self.composer, v) } }
        if t.disc, let n = s.discNumber { o.line(Self.disc, Int64(n)) }
        if t.artistSort, let v = s.sortArtist { o.line(Self.artistSort, v) }
        if t.albumSort, let v = s.sortAlbum { o.line(Self.albumSort, v) }
        if t.albumArtistSort, let v = s.sortAlbumArtist { o.line(Self.albumArtistSort, v) }
        if t.comment, let v = s.comment { o.line(Self.comment, v) }
        if t.musicBrainzTrackID, let v = s.musicBrainzTrackID { o.line(Self.musicBrainzTrackID, v) }
        o.line(Self.time, Int64((s.durationMS + 500) / 1000))
        o.put(Self.duration)
        o.seconds(ms: s.durationMS)
        o.put(Self.newline)
        out.append(contentsOf: UnsafeBufferPointer(start: scratch, count: o.position - scratch))
    }

    /// `file: path` alone (`listall`).
    static func file(_ s: SongRecord, into out: inout [UInt8]) {
        append(file, into: &out)
        var path = s.path
        path.withUTF8 { v in
            if isPlain(v, copyingTo: nil) { out.append(contentsOf: v) } else { MPDValueSanitizer.append(s.path, to: &out) }
        }
        out.append(newline)
    }

    static let newline = UInt8(ascii: "\n")
    // The keys as static strings: appending one is a copy of constant bytes, no array to retain.
    static let file: StaticString = "file: ", lastModified: StaticString = "Last-Modified: ", format: StaticString = "Format: "
    static let sixteen: StaticString = ":16:", colon: StaticString = ":"
    static let artist: StaticString = "Artist: ", albumArtist: StaticString = "AlbumArtist: ", title: StaticString = "Title: "
    static let album: StaticString = "Album: ", track: StaticString = "Track: ", date: StaticString = "Date: "
    static let genre: StaticString = "Genre: ", composer: StaticString = "Composer: ", disc: StaticString = "Disc: "
    static let artistSort: StaticString = "ArtistSort: ", albumSort: StaticString = "AlbumSort: "
    static let albumArtistSort: StaticString = "AlbumArtistSort: ", comment: StaticString = "Comment: "
    static let musicBrainzTrackID: StaticString = "MUSICBRAINZ_TRACKID: ", time: StaticString = "Time: "
    static let duration: StaticString = "duration: "

    @inline(__always)
    static func append(_ key: StaticString, into out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    }

    /// Whether `value` goes out as it is: no byte below 0x20 (a control byte, which the sanitiser turns
    /// into a space) and valid UTF-8. When `destination` is
    /// given, `value`'s bytes are copied there as they are checked (all of them, whatever the answer;
    /// it must have room).
    ///
    /// Eight bytes at a time (most values are short ASCII text): a word `w` holds a byte below 0x20
    /// exactly when `(w - 0x2020…) & ~w` has a byte's top bit set. A byte of 0x20 or more subtracts
    /// 0x20 without a borrow and keeps its top bit only from 0xA0 up, where `~w` clears it; a byte
    /// below 0x20 wraps round to 0xDF or more and `~w` keeps the bit. Only a byte below 0x20 passes
    /// a borrow on to the next one, so a borrow can only blur an answer that is already yes. `w`'s
    /// own top bits mark the bytes that need the UTF-8 check, done from the first such word on (the
    /// words before it are ASCII, so it starts on a character).
    @inline(__always)
    static func isPlain(_ value: UnsafeBufferPointer<UInt8>, copyingTo destination: UnsafeMutablePointer<UInt8>?) -> Bool {
        guard let source = value.baseAddress else { return true }
        let count = value.count
        let spaces: UInt64 = 0x2020_2020_2020_2020, tops: UInt64 = 0x8080_8080_8080_8080
        let from = UnsafeRawPointer(source), to = destination.map { UnsafeMutableRawPointer($0) }
        var control: UInt64 = 0, high: UInt64 = 0
        @inline(__always) func check(_ word: UInt64) {
            control |= (word &- spaces) & ~word
            high |= word
        }
        // No byte loop: a value's last bytes are read as one more word (or as two overlapping halves),
        // which may cover bytes already seen; checking or copying a byte twice changes nothing. Bytes
        // of a short value's word that are not the value's are spaces, which pass.
        if count >= 8 {
            var i = 0
            while i + 8 <= count {
                let word = from.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                to?.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
                check(word)
                i += 8
            }
            if i < count {
                let word = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                to?.storeBytes(of: word, toByteOffset: count - 8, as: UInt64.self)
                check(word)
            }
        } else if count >= 4 {
            let first = from.loadUnaligned(as: UInt32.self), last = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            to?.storeBytes(of: first, as: UInt32.self)
            to?.storeBytes(of: last, toByteOffset: count - 4, as: UInt32.self)
            check(UInt64(last) << 32 | UInt64(first))
        } else if count >= 2 {
            let first = from.loadUnaligned(as: UInt16.self), last = from.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
            to?.storeBytes(of: first, as: UInt16.self)
            to?.storeBytes(of: last, toByteOffset: count - 2, as: UInt16.self)
            check(spaces & ~0xFFFF_FFFF | UInt64(last) << 16 | UInt64(first))
        } else if count == 1 {
            destination?[0] = source[0]
            check(spaces & ~0xFF | UInt64(source[0]))
        }
        if control & tops != 0 { return false }
        if high & tops == 0 { return true }
        var start = 0
        while start + 8 <= count, UnsafeRawPointer(source + start).loadUnaligned(as: UInt64.self) & tops == 0 {
            start += 8
        }
        return MPDValueSanitizer.isValidUTF8(UnsafeBufferPointer(rebasing: value[start...]))
    }
}

/// Writes a song's lines at a pointer with room enough (`SongLines.write` makes sure of it).
private struct RawOutput {
    private(set) var position: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) { position = start }

    @inline(__always)
    mutating func put(_ key: StaticString) {
        UnsafeMutableRawPointer(position).copyMemory(from: key.utf8Start, byteCount: key.utf8CodeUnitCount)
        position += key.utf8CodeUnitCount
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        position.pointee = byte
        position += 1
    }

    @inline(__always)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        position.update(from: base, count: bytes.count)
        position += bytes.count
    }

    /// Moves on past `n` bytes written at `position` by someone else.
    @inline(__always)
    mutating func skip(_ n: Int) {
        position += n
    }

    /// A value as `MPDValueSanitizer.append` gives it: copied while it is checked (`isPlain`), then
    /// kept, or written over by the sanitiser's bytes.
    @inline(__always)
    mutating func value(_ text: String) {
        var text = text
        let plain = text.withUTF8 { v in
            guard SongLines.isPlain(v, copyingTo: position) else { return false }
            position += v.count
            return true
        }
        if !plain {
            var bytes: [UInt8] = []
            MPDValueSanitizer.append(text, to: &bytes)
            bytes.withUnsafeBufferPointer { put($0) }
        }
    }

    /// `key: value\n`.
    @inline(__always)
    mutating func line(_ key: StaticString, _ text: String) {
        put(key)
        value(text)
        put(SongLines.newline)
    }

    @inline(__always)
    mutating func line(_ key: StaticString, _ n: Int64) {
        put(key)
        integer(n)
        put(SongLines.newline)
    }

    /// `String(n)`'s digits.
    @inline(__always)
    mutating func integer(_ n: Int64) {
        if n < 0 {
            var s = String(n)
            s.withUTF8 { put($0) }
            return
        }
        var digits = 1
        var rest = n / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var n = n
        var at = position + digits
        repeat {
            at -= 1
            at.pointee = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: n % 10)
            n /= 10
        } while n > 0
        position += digits
    }

    /// `SongWriter.seconds(ms:)`'s bytes.
    mutating func seconds(ms: Int) {
        if let n = SongWriter.writeSeconds(ms: ms, at: position) {
            position += n
        } else {
            var s = SongWriter.seconds(ms: ms)
            s.withUTF8 { put($0) }
        }
    }

    /// `SongWriter.timestamp(unix)`'s bytes.
    mutating func timestamp(_ unix: Int64) {
        if let n = SongWriter.writeTimestamp(unix, at: position) {
            position += n
        } else {
            var s = SongWriter.timestamp(unix)
            s.withUTF8 { put($0) }
        }
    }
}
