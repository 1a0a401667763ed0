import Testing

@testable import AudioFormats

struct ByteCursorTests {
    @Test func readsBothByteOrdersAndStopsAtTheEnd() {
        var c = ByteCursor([0x01, 0x02, 0x03, 0x04, 0x05])
        #expect(c.u16be() == 0x0102)
        #expect(c.u16le() == 0x0403)
        #expect(c.u32be() == nil, "a read past the end is nil")
        #expect(c.position == 4, "and moves nothing")
        #expect(c.u8() == 0x05)
        #expect(c.isAtEnd)
        let skipped = c.skip(1)
        #expect(!skipped)
    }

    @Test func memorySourceReadsClampToTheFile() throws {
        let s = MemorySource([1, 2, 3])
        #expect(try s.read(at: 1, count: 10) == [2, 3])
        #expect(try s.read(at: 3, count: 1) == [])
        #expect(try s.read(at: -1, count: 1) == [])
    }
}
