@testable import ControlServer
import Foundation
import GRDB
import Library
import Logging
import MPDProtocol
import Testing

/// A folder and a file whose names are not valid UTF-8 (copied from an old FAT stick): clients see
/// and send the text form (U+FFFD), and albumart/readpicture still find the real files by their bytes.
@Suite struct RawNameArtworkTests {
    @Test func albumartAndReadpictureFindFilesWhoseNamesAreNotUTF8() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-rawname-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: dir) }
        let music = dir.appendingPathComponent("music").path
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let folder = Array(music.utf8) + Array("/Caf".utf8) + [0xE9]
        let song = folder + Array("/Ch".utf8) + [0xE2] + Array("teau.mp3".utf8)
        let cover = Array("cover bytes \u{1}\u{2}".utf8)
        #expect(ControlCommands.withCString(folder) { mkdir($0, 0o755) } == 0)
        try write(Array(try Data(contentsOf: URL(fileURLWithPath: ServerFixture.music + "/Tag Formats/id3v2.3 utf16.mp3"))), to: song)
        try write(cover, to: folder + Array("/cover.jpg".utf8))
        let pool = try LibraryDatabase.open(at: dir.appendingPathComponent("lib.sqlite").path)
        var quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        quiet.logLevel = .critical
        _ = try LibraryScanner(musicFolder: music, database: pool, logger: quiet).run()
        let uri = try #require(try pool.read { try String.fetchOne($0, sql: "SELECT path FROM tracks") })
        #expect(uri.contains("\u{FFFD}"))
        let picture = try #require(try Catalog(pool).artwork(path: uri)?.picture)

        let commands = ControlCommands(
            catalog: Catalog(pool), playlists: StoredPlaylists(pool), player: ServerFixture.makeLoop().loop, musicFolder: music)
        var client = commands.newClient()
        func run(_ line: String) -> [UInt8] {
            commands.execute(MPDCommandBatch(mode: .single, lines: [Array(line.utf8)]), client: &client).output
        }
        let art = run("albumart \"\(uri)\" 0")
        #expect(art == Array("size: \(cover.count)\nbinary: \(cover.count)\n".utf8) + cover + Array("\nOK\n".utf8))
        let embedded = run("readpicture \"\(uri)\" 0")
        let head = "size: \(picture.size)\ntype: \(picture.mime)\nbinary: "
        #expect(embedded.starts(with: Array(head.utf8)), "\(String(decoding: embedded.prefix(80), as: UTF8.self))")
        #expect(embedded.suffix(3) == Array("\nOK\n".utf8).suffix(3))
    }

    func write(_ data: [UInt8], to path: [UInt8]) throws {
        let fd = (path + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        try #require(fd >= 0)
        _ = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
