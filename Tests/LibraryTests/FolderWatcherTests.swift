import ClickWheelTestKit
import Library
import NamedThreads
import Foundation
import Synchronization
import Testing

/// The music folder watcher on a real temporary folder with real inotify: folders added later are
/// watched too, a burst of changes makes one call, and past the watch limit it checks periodically.
@Suite struct FolderWatcherTests {
    final class Calls: Sendable {
        let count = Atomic(0)
        func wait(until n: Int, seconds: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while count.load(ordering: .relaxed) < n && Date() < deadline { usleep(20_000) }
            return count.load(ordering: .relaxed) >= n
        }
    }

    func folder(_ subfolders: [String] = []) throws -> String {
        let dir = "/tmp/cw-watch-\(UUID().uuidString.prefix(8))"
        for sub in [""] + subfolders {
            try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
        }
        return dir
    }

    func write(_ path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data("ID3".utf8))
    }

    @Test func changesAnywhereBelowTheFolderAreSeenIncludingNewFolders() throws {
        let dir = try folder(["Artist/Album"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = LogCapture()
        let watcher = try FolderWatcher(folder: dir, debounceMS: 100, logger: log.logger)
        let calls = Calls()
        let mode = try watcher.start { calls.count.add(1, ordering: .relaxed) }
        defer { watcher.stop() }
        #expect(mode == .inotify(watches: 3))
        write(dir + "/Artist/Album/01 Song.mp3")
        #expect(calls.wait(until: 1), "a file written two folders down")
        // A new folder with a folder inside, made before the watcher could see the first: both watched.
        try FileManager.default.createDirectory(atPath: dir + "/New/Deeper", withIntermediateDirectories: true)
        #expect(calls.wait(until: 2))
        write(dir + "/New/Deeper/02 Song.mp3")
        #expect(calls.wait(until: 3), "a file in a folder that was created after the start")
        try FileManager.default.moveItem(atPath: dir + "/New/Deeper/02 Song.mp3", toPath: dir + "/02 Moved.mp3")
        #expect(calls.wait(until: 4), "a file moved")
        try FileManager.default.removeItem(atPath: dir + "/Artist")
        #expect(calls.wait(until: 5), "a folder deleted")
    }

    @Test func aBurstOfChangesMakesOneCallAfterItSettles() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watcher = try FolderWatcher(folder: dir, debounceMS: 300, logger: LogCapture().logger)
        let calls = Calls()
        try watcher.start { calls.count.add(1, ordering: .relaxed) }
        defer { watcher.stop() }
        for i in 0..<20 { write(dir + "/\(i).mp3") }
        #expect(calls.wait(until: 1))
        usleep(800_000)
        #expect(calls.count.load(ordering: .relaxed) == 1)
    }

    @Test func pastTheWatchLimitItChecksPeriodicallyAndSaysSoOnce() throws {
        let dir = try folder(["A", "B", "C"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = LogCapture()
        let watcher = try FolderWatcher(folder: dir, periodMS: 200, watchLimit: 2, logger: log.logger)
        let calls = Calls()
        let mode = try watcher.start { calls.count.add(1, ordering: .relaxed) }
        defer { watcher.stop() }
        guard case .periodic(let reason) = mode else {
            Issue.record("expected the periodic check, got \(mode)")
            return
        }
        #expect(reason.contains("watch limit"))
        #expect(calls.wait(until: 3), "called every period without any change")
        #expect(log.lines.filter { $0.contains("instead of watching") }.count == 1, "\(log.lines)")
    }
}
