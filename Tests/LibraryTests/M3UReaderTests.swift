@testable import Library
import Testing

/// The playlist reader on its own (bytes in, entries out): the fixtures' indexing covers the files.
@Suite struct M3UReaderTests {
    /// An absolute path inside the music folder is resolved against the music folder (it was taken as
    /// relative to the playlist's folder once the music folder's prefix was cut: found writing this test).
    @Test func entriesResolveAgainstThePlaylistsFolder() {
        let text = "#EXTM3U\r\n#EXTINF:0,A - B\r\n../Tag Formats/id3v1.mp3\r\n..\\Durations\\03 VBR.mp3\r\n"
            + "http://radio/stream\r\n/home/pi/Music/Artist/x.mp3\r\n./same.mp3\r\n"
        #expect(
            M3UReader.entries(Array(text.utf8), playlistPath: "Playlists/Mix.m3u8", root: "/home/pi/Music") == [
                "Tag Formats/id3v1.mp3", "Durations/03 VBR.mp3", "Artist/x.mp3", "Playlists/same.mp3",
            ])
    }

    /// Fuzz target 3's finding: components were split by Character, and a slash with a combining mark after
    /// it is one Character, so `../` followed by U+0301 stayed inside one component: the entry kept a `..`
    /// (and a slash) the database stored as is.
    @Test func aSlashWithACombiningMarkStillSeparatesComponents() {
        let entries = M3UReader.entries(Array("../\u{301}x\n".utf8), playlistPath: "Playlists/Mix.m3u")
        #expect(entries == ["\u{301}x"])
        #expect(M3UReader.entries(Array("a/.\u{301}/b\n".utf8), playlistPath: "Mix.m3u") == ["a/.\u{301}/b"])
        #expect(M3UReader.entries(Array("/\u{301}\n".utf8), playlistPath: "P/Mix.m3u") == ["\u{301}"])
        // And a Windows backslash with a combining mark after it (the fuzz target's find: it stayed a backslash).
        #expect(M3UReader.entries(Array("ns\\\u{301}x\n".utf8), playlistPath: "P/Mix.m3u") == ["P/ns/\u{301}x"])
    }
}
