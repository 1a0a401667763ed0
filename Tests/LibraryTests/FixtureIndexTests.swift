import Foundation
import GRDB
@testable import Library
import Testing

/// Indexes the committed fixture library (real MP3s from lame, tagged by mutagen and hand writers) and
/// checks every stored value against `Fixtures/expected.json`.
@Suite(.serialized) struct FixtureIndexTests {
    struct Expected: Decodable {
        var tracks: [String: [String: JSONValue]]
        var skipped: [String: String]
        var problems: [String: [String]]
        var playlists: [String: [String?]]
        var ignored: [String]
    }

    enum JSONValue: Decodable, Equatable, CustomStringConvertible {
        case string(String), int(Int), double(Double), bool(Bool), list([String])
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let i = try? c.decode(Int.self) { self = .int(i) }
            else if let d = try? c.decode(Double.self) { self = .double(d) }
            else if let s = try? c.decode(String.self) { self = .string(s) }
            else { self = .list(try c.decode([String].self)) }
        }
        var description: String {
            switch self {
            case .string(let s): s.debugDescription
            case .int(let i): "\(i)"
            case .double(let d): "\(d)"
            case .bool(let b): "\(b)"
            case .list(let l): "\(l)"
            }
        }
    }

    static let expected: Expected = {
        let data = try! Data(contentsOf: TestPaths.fixtures.appendingPathComponent("expected.json"))
        return try! JSONDecoder().decode(Expected.self, from: data)
    }()

    static let indexed: (dir: TempDir, pool: DatabasePool, summary: ScanSummary) = {
        let dir = TempDir()
        let pool = try! LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        let summary = try! index(TestPaths.fixtureMusic.path, into: pool)
        return (dir, pool, summary)
    }()

    /// The stored value of `field` for the track row, in the JSON shape of expected.json.
    static func stored(_ field: String, _ row: Row, _ values: [String: [String]], _ episode: Row?) -> JSONValue? {
        func list(_ name: String, _ column: String) -> JSONValue? {
            if let v = values[name], v.count > 1 { return .list(v) }
            return (row[column] as String?).map { .list([$0]) }
        }
        switch field {
        case "artist": return list("artist", "artist")
        case "album_artist": return list("album_artist", "album_artist")
        case "genre": return list("genre", "genre")
        case "composer": return list("composer", "composer")
        case "title", "album", "date", "comment", "sort_title", "sort_artist", "sort_album", "sort_album_artist",
            "tag_format":
            return (row[field] as String?).map { .string($0) }
        case "year", "track_number", "track_total", "disc_number", "disc_total", "samples", "sample_rate", "channels":
            return (row[field] as Int?).map { .int($0) }
        case "is_vbr", "is_compilation", "has_artwork", "is_podcast":
            return .bool(row[field])
        case "rg_track_gain", "rg_track_peak", "rg_album_gain", "rg_album_peak":
            return (row[field] as Double?).map { .double($0) }
        case "podcast_show": return (episode?["show"] as String?).map { .string($0) }
        case "release_date": return (episode?["release_date"] as String?).map { .string($0) }
        case "description": return (episode?["description"] as String?).map { .string($0) }
        case "feed_url": return (episode?["feed_url"] as String?).map { .string($0) }
        default: return nil
        }
    }

    @Test func everyTrackIsStoredWithTheExactExpectedValues() throws {
        let (_, pool, _) = Self.indexed
        var checked = 0
        try pool.read { db in
            for (path, fields) in Self.expected.tracks.sorted(by: { $0.key < $1.key }) {
                guard let row = try Row.fetchOne(db, sql: "SELECT * FROM tracks WHERE path = ?", arguments: [path]) else {
                    Issue.record("not indexed: \(path)")
                    continue
                }
                let id: Int64 = row["id"]
                var values: [String: [String]] = [:]
                for v in try Row.fetchAll(db, sql: "SELECT field, value FROM track_values WHERE track_id = ? ORDER BY field, position", arguments: [id]) {
                    values[v["field"], default: []].append(v["value"])
                }
                let episode = try Row.fetchOne(db, sql: """
                    SELECT s.title AS show, e.release_date, e.description, e.feed_url FROM podcast_episodes e
                    JOIN podcast_shows s ON s.id = e.show_id WHERE e.track_id = ?
                    """, arguments: [id])
                for (field, want) in fields {
                    let got = Self.stored(field, row, values, episode)
                    if case .double(let w) = want, case .double(let g)? = got {
                        #expect(abs(w - g) < 1e-6, "\(path): \(field)")
                    } else if case .int(let w) = want, case .double(let g)? = got {
                        #expect(abs(Double(w) - g) < 1e-6, "\(path): \(field)")
                    } else {
                        #expect(got == want, "\(path): \(field)")
                    }
                    checked += 1
                }
                // Optional fields the fixture says are absent must be absent.
                for field in ["album_artist", "composer", "genre", "year", "track_number", "disc_number", "comment",
                              "rg_track_gain", "rg_album_gain", "sort_artist"] where fields[field] == nil {
                    #expect(Self.stored(field, row, values, episode) == nil, "\(path): \(field) should be empty")
                }
                let samples: Int64 = row["samples"], rate: Int64 = row["sample_rate"], ms: Int64 = row["duration_ms"]
                #expect(abs(Double(ms) - Double(samples) * 1000 / Double(rate)) <= 0.5, "\(path): duration_ms")
            }
        }
        #expect(checked > 300)
    }

    @Test func badFilesAreSkippedOrFlaggedWithTheRightReason() throws {
        let (_, pool, summary) = Self.indexed
        let lines = try ScanReport.lines(pool)
        for (path, kind) in Self.expected.skipped {
            #expect(lines.contains { $0.path == path && $0.skipped && $0.kind == kind }, "\(path) should be skipped as \(kind)")
            #expect(try pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM tracks WHERE path = ?", arguments: [path]) } == 0)
        }
        for (path, kinds) in Self.expected.problems {
            for kind in kinds {
                #expect(lines.contains { $0.path == path && !$0.skipped && $0.kind == kind }, "\(path) should report \(kind)")
            }
        }
        #expect(lines.count == Self.expected.skipped.count + Self.expected.problems.values.map(\.count).reduce(0, +))
        #expect(summary.skipped == Self.expected.skipped.count)
        #expect(summary.tracks == Self.expected.tracks.count)
    }

    @Test func playlistsResolveTheirEntries() throws {
        let (_, pool, _) = Self.indexed
        try pool.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM playlists") == Self.expected.playlists.count)
            for (path, entries) in Self.expected.playlists {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT t.path FROM playlists p JOIN playlist_entries e ON e.playlist_id = p.id
                    LEFT JOIN tracks t ON t.id = e.track_id WHERE p.path = ? ORDER BY e.position
                    """, arguments: [path])
                #expect(rows.map { $0["path"] as String? } == entries, "\(path)")
            }
        }
    }

    @Test func nonAudioFilesAreIgnoredSilently() throws {
        let (_, pool, _) = Self.indexed
        let reported = Set(try ScanReport.lines(pool).map(\.path))
        for path in Self.expected.ignored { #expect(!reported.contains(path)) }
    }
}
