import Testing

@testable import Library

/// What the scanner asks the kernel to fetch ahead of a file: its end only for the formats whose index
/// reads the end (an MP3's ID3v1 tag, an Ogg stream's last page), by the name's suffix in any case.
struct ReadAheadTests {
    @Test(arguments: ["a/b.mp3", "x.MP3", "c/d.ogg", "e.oga", "f.Opus"])
    func theEndIsFetchedFor(name: String) {
        #expect(ReadAhead.readsTail(Array(name.utf8)))
    }

    @Test(arguments: ["a/b.flac", "c.m4a", "d.m4b", "e.wav", "f.aiff", "g.aif", "mp3/noext", "h.mp3/"])
    func theEndIsLeftAloneFor(name: String) {
        #expect(!ReadAhead.readsTail(Array(name.utf8)))
    }
}
