@testable import ControlServer
import Foundation
import GRDB
import Logging
@testable import Library
import MPDProtocol
import Testing

/// The shortcuts `listallinfo` takes over the records' way (`SongLines` checking eight bytes at a time
/// and reusing the last time stamp) give the same bytes as `SongWriter` and the whole-array walk.
@Suite struct ListingFastPathTests {
    /// Bytes that take each way through the check: plain ASCII, control bytes and NUL (slow path),
    /// valid multi-byte characters, invalid or cut-off sequences, a surrogate.
    static let specials: [[UInt8]] = [
        [0x00], [0x09], [0x0A], [0x1F], [0x20], [0x7F], [0x80], [0xC3, 0xA9], [0xE2, 0x82, 0xAC],
        [0xF0, 0x9F, 0x8E, 0xB5], [0xFF], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF],
    ]

    /// The check before it went eight bytes at a time: a byte loop, then the sanitiser's UTF-8 check.
    static func plainByBytes(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        !value.contains { $0 < 0x20 } && MPDValueSanitizer.isValidUTF8(value)
    }

    @Test func theWordCheckAgreesWithTheByteLoopWhereverTheByteIs() {
        for length in 0...26 {
            for special in Self.specials {
                for position in 0...max(0, length - special.count) where length >= special.count || length == 0 {
                    var value = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { value.replaceSubrange(position..<(position + special.count), with: special) }
                    // A valid character early, then the special byte later: the UTF-8 check starts at
                    // the first word with a high byte, which must still be on a character.
                    var mixed = value
                    if length >= special.count + 2, position >= 2 { mixed.replaceSubrange(0..<2, with: [0xC3, 0xA9]) }
                    for bytes in [value, mixed] {
                        // NUL-terminated, as SQLite keeps a text.
                        let text = bytes + [0]
                        text.withUnsafeBufferPointer { whole in
                            let v = UnsafeBufferPointer(rebasing: whole[..<bytes.count])
                            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
                            defer { copy.deallocate() }
                            #expect(SongLines.isPlain(v, copyingTo: nil) == Self.plainByBytes(v), "\(bytes)")
                            #expect(SongLines.isPlain(v, copyingTo: copy) == Self.plainByBytes(v), "\(bytes)")
                            #expect(Array(UnsafeBufferPointer(start: copy, count: bytes.count)) == bytes, "copied \(bytes)")
                            // A record read from SQLite holds the text up to a NUL, invalid UTF-8 repaired.
                            var song = SongFilterTests.song
                            song.path = String(cString: whole.baseAddress!)
                            var fast: [UInt8] = []
                            SongLines.file(song, into: &fast)
                            var reference = Array("file: ".utf8)
                            MPDValueSanitizer.append(song.path, to: &reference)
                            reference.append(UInt8(ascii: "\n"))
                            #expect(fast == reference, "\(bytes)")
                        }
                    }
                }
            }
        }
    }

    /// Text values of every length around the word size with odd bytes at word edges, and time stamps
    /// that repeat, change, go back and go below 1970, list as `SongWriter` writes the records.
    @Test func oddValuesAndRepeatedTimesListAsTheRecordsAreWritten() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-fast-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: dir) }
        let paths = (0..<10).map { "d\($0 % 3)/s\($0).mp3" } + ["d1/sub/x.mp3", "top.mp3"]
        let (music, pool) = try ServerFixture.indexedCopies(at: paths, in: dir)

        // A fixed sequence of values: lengths 0…40, mostly plain, some with a special byte anywhere.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func value() -> [UInt8] {
            var bytes = (0..<next(41)).map { _ in UInt8(ascii: "a") + UInt8(next(26)) }
            if !bytes.isEmpty, next(3) > 0 {
                let special = Self.specials[next(Self.specials.count)]
                let at = next(bytes.count)
                bytes.replaceSubrange(at..<min(bytes.count, at + special.count), with: special)
            }
            return bytes
        }
        let columns = [
            "title", "artist", "album", "album_artist", "genre", "composer", "date", "comment", "musicbrainz_trackid",
            "sort_artist", "sort_album", "sort_album_artist",
        ]
        let seconds: [Int64] = [1_700_000_000, 1_700_000_000, 1_700_000_001, 1_600_000_000, 1_700_000_000, -1, 0, 0, -86_401, 5, 5, 5]
        try pool.write { db in
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM tracks ORDER BY path")
            #expect(ids.count == paths.count)
            for (i, id) in ids.enumerated() {
                for column in columns {
                    let hex = value().map { String(format: "%02x", $0) }.joined()
                    try db.execute(sql: "UPDATE tracks SET \(column) = CAST(x'\(hex)' AS TEXT) WHERE id = ?", arguments: [id])
                }
                // Within the second, at its start and end, so that equal seconds come from unequal times.
                let ns = seconds[i] * 1_000_000_000 + (i % 2 == 0 ? 0 : 999_999_999)
                try db.execute(sql: "UPDATE tracks SET mtime_ns = ? WHERE id = ?", arguments: [ns, id])
            }
        }

        let commands = ControlCommands(
            catalog: Catalog(pool), playlists: StoredPlaylists(pool), player: ServerFixture.makeLoop().loop, musicFolder: music.path)
        var client = commands.newClient()
        let all = Set(MPDTag.tagtypes.map(\.name)).union(["Comment"])
        for tags in [all, ["Title"]] as [Set<String>] {
            client.tagTypes = tags
            for uri in ["", "d1"] {
                for command in ["listallinfo", "listall"] {
                    let line = uri.isEmpty ? command : "\(command) \"\(uri)\""
                    let result = commands.execute(MPDCommandBatch(mode: .single, lines: [Array(line.utf8)]), client: &client)
                    let expected = WholeArrayTree.listing(command, try Catalog(pool).songs(under: uri), base: uri, tags: tags)
                    #expect(result.output == expected, "\(line) \(tags.sorted())")
                }
            }
        }
    }
}
