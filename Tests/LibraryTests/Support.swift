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
