@testable import ControlServer
import Library
import Testing

/// `DirectoryStream` tells folders apart by their bytes, as the file system does.
@Suite struct DirectoryStreamBytesTests {
    /// Two folders whose names are the same text in NFC and in NFD are two folders on disk: each is
    /// listed once, with its own songs' newest time (String keys took them for one).
    @Test func foldersNamedInNFCAndNFDAreTwoFolders() {
        let nfd = "Cafe\u{301}", nfc = "Caf\u{E9}"
        #expect(nfd == nfc && Array(nfd.utf8) != Array(nfc.utf8))
        // Path order is byte order: "e" + U+0301 sorts before "é".
        let paths = ["\(nfd)/a.mp3", "\(nfd)/b.mp3", "\(nfc)/sub/c.mp3", "\(nfc)/d.mp3"]
        let runs: [(folder: String, newest: Int64)] = [(nfd, 100), ("\(nfc)/sub", 300), (nfc, 200)]
        var stream = DirectoryStream(base: "", runs: runs)
        var got: [String] = []
        func visit(_ entry: DirectoryTree.Entry) {
            switch entry {
            case .directory(let path, let modified): got.append("D \(Array(path.utf8)) \(modified)")
            case .song(let song): got.append("S \(Array(song.path.utf8))")
            }
        }
        for path in paths {
            var song = SongFilterTests.song
            song.path = path
            stream.add(song, visit)
        }
        stream.finish(visit)
        // The NFC folder's own song waits for its subfolder.
        let expected = [
            "D \(Array(nfd.utf8)) 100", "S \(Array(paths[0].utf8))", "S \(Array(paths[1].utf8))",
            "D \(Array(nfc.utf8)) 300", "D \(Array("\(nfc)/sub".utf8)) 300", "S \(Array(paths[2].utf8))",
            "S \(Array(paths[3].utf8))",
        ]
        #expect(got == expected)
    }
}
