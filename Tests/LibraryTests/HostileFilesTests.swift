import Foundation
import GRDB
@testable import Library
import Testing

/// Bad input that git cannot carry, made at run time: odd names, links, huge artwork, vanishing files.
@Suite struct HostileFilesTests {
    let dir = TempDir()
    var music: String { dir.file("music").path }
    static let sample = TestPaths.fixtureMusic.appendingPathComponent("Durations/02 VBR Xing.mp3")

    init() throws {
        try FileManager.default.createDirectory(atPath: music + "/A", withIntermediateDirectories: true)
    }

    func scan() throws -> (DatabasePool, ScanSummary) {
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        return (pool, try index(music, into: pool))
    }

    @Test func fileNameThatIsNotUTF8IsIndexedWithItsExactBytes() throws {
        let name: [UInt8] = Array("A/bad-".utf8) + [0xFF, 0xFE] + Array("-name.mp3".utf8)
        let path = Array(music.utf8) + [0x2F] + name + [0]
        let data = try Data(contentsOf: Self.sample)
        let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
        #expect(fd >= 0)
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let (pool, summary) = try scan()
        #expect(summary.added == 1)
        let row = try pool.read { try Row.fetchOne($0, sql: "SELECT path, path_bytes FROM tracks")! }
        #expect((row["path_bytes"] as Data?).map { Array($0) } == name)
        #expect((row["path"] as String).contains("\u{FFFD}"))
        #expect(try ScanReport.lines(pool).contains { $0.kind == "invalid-filename" && !$0.skipped })
        // A rescan recognises the same bytes: nothing changes.
        let again = try index(music, into: pool)
        #expect(again.unchanged == 1 && again.added == 0 && again.removed == 0)
        // Playback is given the exact bytes, and they open the file (the U+FFFD text would not).
        let id: Int64 = try pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM tracks")! }
        let file = try #require(try LibraryStore(pool).playableFile(id))
        #expect(file.relativePath == name)
        let full = Array(music.utf8) + [0x2F] + file.relativePath + [0]
        let opened = full.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) } }
        #expect(opened >= 0)
        if opened >= 0 { close(opened) }
        #expect(open(music + "/" + (row["path"] as String), O_RDONLY) < 0)
    }

    @Test func symlinkLoopsAndBrokenLinksAreReportedNotFollowedForever() throws {
        try FileManager.default.copyItem(at: Self.sample, to: URL(fileURLWithPath: music + "/A/song.mp3"))
        try FileManager.default.createSymbolicLink(atPath: music + "/A/loop", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: music + "/ping.mp3", withDestinationPath: "pong.mp3")
        try FileManager.default.createSymbolicLink(atPath: music + "/pong.mp3", withDestinationPath: "ping.mp3")
        try FileManager.default.createSymbolicLink(atPath: music + "/gone.mp3", withDestinationPath: "/nonexistent/x.mp3")
        try FileManager.default.createSymbolicLink(atPath: music + "/linked.mp3", withDestinationPath: "A/song.mp3")
        let (pool, summary) = try scan()
        #expect(summary.tracks == 2)  // the song, and the link to it (followed once)
        let kinds = Dictionary(try ScanReport.lines(pool).map { ($0.path, $0.kind) }, uniquingKeysWith: { a, _ in a })
        #expect(kinds["A/loop"] == "symlink-loop")
        #expect(kinds["ping.mp3"] == "symlink-loop")
        #expect(kinds["pong.mp3"] == "symlink-loop")
        #expect(kinds["gone.mp3"] == "broken-link")
    }

    @Test func hugeArtworkIsFoundWithoutReadingItAndTheLengthIsExact() throws {
        // An ID3v2.3 tag with an 8 MiB APIC frame in front of a real MP3 (its own tag dropped).
        let mp3 = try Data(contentsOf: Self.sample)
        let audio = mp3.subdata(in: ID3Bytes.tagLength(mp3)..<mp3.count)
        var image = Data([0xFF, 0xD8, 0xFF, 0xE0])
        image.append(Data(repeating: 0x42, count: 8 << 20))
        var apic = Data([0]) + Data("image/jpeg".utf8) + Data([0, 3]) + Data("cover".utf8) + Data([0])
        let imageOffsetInFrame = apic.count
        apic.append(image)
        var frames = ID3Bytes.textFrame("TIT2", "Big Cover")
        let apicHeaderAt = frames.count
        frames.append(ID3Bytes.frame("APIC", apic))
        let tag = ID3Bytes.header(size: frames.count) + frames
        try (tag + audio).write(to: URL(fileURLWithPath: music + "/A/big.mp3"))
        let (pool, summary) = try scan()
        #expect(summary.added == 1)
        let row = try pool.read { try Row.fetchOne($0, sql: "SELECT * FROM tracks")! }
        #expect(row["title"] as String == "Big Cover")
        #expect(row["has_artwork"] as Bool)
        #expect(row["artwork_mime"] as String? == "image/jpeg")
        #expect(row["artwork_size"] as Int? == image.count)
        #expect(row["artwork_offset"] as Int? == 10 + apicHeaderAt + 10 + imageOffsetInFrame)
        let expected = try Self.storedSamples(of: Self.sample)
        #expect(row["samples"] as Int64 == expected)
    }

    /// Fuzz target 2's finding (its input, kept in Fixtures/fuzz): an MPEG frame header inside the ID3v1
    /// tag's own bytes, so the audio started after the tag's first byte and the audio's length (file size
    /// less the start, less the tag) came out negative, and the bitrate with it (-2 kbit/s).
    @Test func aFrameInsideTheID3v1TagGivesNoNegativeBitrate() throws {
        let file = TestPaths.fixtures.appendingPathComponent("fuzz/frame-inside-id3v1.mp3")
        let reader = try TrackReader()
        guard case .track(let m) = reader.read(path: Array(file.path.utf8) + [0], relativePath: "A/x.mp3") else {
            Issue.record("the fuzz input is no longer read as a track: the test must change with the reader")
            return
        }
        #expect(m.bitrate >= 0)
        #expect(m.samples > 0)
    }

    @Test func fileVanishingBeforeItIsReadIsSkippedWithAReason() throws {
        let reader = try TrackReader()
        let outcome = reader.read(path: Array((music + "/A/never-there.mp3").utf8) + [0], relativePath: "A/never-there.mp3")
        guard case .skipped(let problem) = outcome else {
            Issue.record("expected a skip")
            return
        }
        #expect(problem.kind == "vanished")
    }

    @Test func unreadableFileIsSkippedWhenTheServiceIsNotRoot() throws {
        // Root reads mode-000 files, so run the real binary as an unprivileged user when we are root.
        try FileManager.default.copyItem(at: Self.sample, to: URL(fileURLWithPath: music + "/A/ok.mp3"))
        try FileManager.default.copyItem(at: Self.sample, to: URL(fileURLWithPath: music + "/A/locked.mp3"))
        chmod(music + "/A/locked.mp3", 0)
        chmod(dir.path, 0o777)
        var args = ["index", "--music", music, "--db", dir.file("lib.sqlite").path, "--report"]
        var exe = TestPaths.clickwheel
        if getuid() == 0 {
            args = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", exe] + args
            exe = "/usr/bin/setpriv"
            // The binary and its libraries must be readable by nobody: they are (0755 under .build).
        }
        let r = try runProcess(exe, args)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("A/locked.mp3\tskipped\tunreadable\t"))
        #expect(r.stdout.contains("1 tracks"))
    }

    static func storedSamples(of file: URL) throws -> Int64 {
        let d = TempDir()
        try FileManager.default.createDirectory(atPath: d.path + "/m", withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file, to: URL(fileURLWithPath: d.path + "/m/x.mp3"))
        let pool = try LibraryDatabase.open(at: d.file("x.sqlite").path)
        try index(d.path + "/m", into: pool)
        return try pool.read { try Int64.fetchOne($0, sql: "SELECT samples FROM tracks")! }
    }
}

/// Writes ID3v2.3 bytes for tests.
enum ID3Bytes {
    static func header(size: Int) -> Data {
        Data([0x49, 0x44, 0x33, 3, 0, 0]) + Data([
            UInt8((size >> 21) & 0x7F), UInt8((size >> 14) & 0x7F), UInt8((size >> 7) & 0x7F), UInt8(size & 0x7F),
        ])
    }

    static func frame(_ id: String, _ payload: Data) -> Data {
        let n = payload.count
        return Data(id.utf8) + Data([UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF), 0, 0])
            + payload
    }

    static func textFrame(_ id: String, _ text: String) -> Data { frame(id, Data([3]) + Data(text.utf8)) }

    /// Length of the ID3v2 tag at the start of `data` (0 when there is none).
    static func tagLength(_ data: Data) -> Int {
        let b = [UInt8](data.prefix(10))
        guard b.count == 10, b[0] == 0x49, b[1] == 0x44, b[2] == 0x33 else { return 0 }
        return 10 + (Int(b[6]) << 21 | Int(b[7]) << 14 | Int(b[8]) << 7 | Int(b[9]))
    }
}
