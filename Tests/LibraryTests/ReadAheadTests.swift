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

extension ReadAheadTests {
    /// The spans fetched ahead: a page at the front, the end's pages for MP3; more of an Ogg file, never
    /// past its size and never overlapping.
    @Test func spansStayInTheFile() {
        #expect(ReadAhead.spans(of: Array("a.flac".utf8), size: 1_000_000) == (4096, 0))
        #expect(ReadAhead.spans(of: Array("a.flac".utf8), size: 100) == (100, 0))
        #expect(ReadAhead.spans(of: Array("a.mp3".utf8), size: 1_000_000) == (4096, 1_000_000 - 999_424))
        #expect(ReadAhead.spans(of: Array("a.ogg".utf8), size: 86481) == (8192, 86481 - 86016))
        #expect(ReadAhead.spans(of: Array("a.Opus".utf8), size: 219_216) == (8192, 219_216 - 217_088))
        #expect(ReadAhead.spans(of: Array("a.opus".utf8), size: 6000) == (6000, 0))
        #expect(ReadAhead.spans(of: Array("a.ogg".utf8), size: 8200) == (8192, 8))
    }
}
