import ClickWheelCore
import Foundation
import GRDB
@testable import Library
import Logging

/// Paths and helpers shared by the library tests.
enum TestPaths {
    /// The repository root (tests read Migrations/ and the fixtures from the source tree).
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/LibraryTests/Fixtures")
    static let fixtureMusic = fixtures.appendingPathComponent("music")

    /// The `clickwheel` binary built beside the test bundle.
    static var clickwheel: String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("clickwheel").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return root.appendingPathComponent(".build/debug/clickwheel").path
    }
}

/// A temporary folder removed when the value is dropped.
final class TempDir: Sendable {
    let url: URL
    var path: String { url.path }

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cw-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ relative: String) -> URL { url.appendingPathComponent(relative) }
}

extension Logger {
    static let quiet: Logger = {
        var l = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        l.logLevel = .critical
        return l
    }()
}

/// Copies `source` (a folder) to `dest` recursively.
func copyTree(_ source: URL, to dest: URL) throws {
    try FileManager.default.copyItem(at: source, to: dest)
}

/// Indexes `music` into a new database at `db` and returns the summary.
@discardableResult
func index(_ music: String, into pool: DatabasePool, threads: Int = 2) throws -> ScanSummary {
    try LibraryScanner(musicFolder: music, database: pool, logger: .quiet, threads: threads).run()
}

/// A fresh database with the fixture library indexed, and its song ids in Songs order.
func indexedFixtures() throws -> (dir: TempDir, pool: DatabasePool, songs: [TrackID]) {
    let dir = TempDir()
    let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
    try index(TestPaths.fixtureMusic.path, into: pool)
    return (dir, pool, try LibraryStore(pool).trackIDs(of: .songs))
}

/// Three of the fixture songs as `Band/Record/01 Song.mp3` … `03 Song.mp3` under `music` (a small
/// library to change on disk).
func copyThreeSongs(to music: String) throws {
    let fm = FileManager.default
    try fm.createDirectory(atPath: music + "/Band/Record", withIntermediateDirectories: true)
    for (i, name) in ["02 VBR Xing.mp3", "01 CBR Info.mp3", "06 48000 Hz.mp3"].enumerated() {
        try fm.copyItem(
            atPath: TestPaths.fixtureMusic.appendingPathComponent("Durations/" + name).path,
            toPath: music + "/Band/Record/0\(i + 1) Song.mp3")
    }
}
