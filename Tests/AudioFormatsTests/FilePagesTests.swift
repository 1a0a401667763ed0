import Testing

@testable import AudioFormats

/// The readers' reads end on the page cache's 4 KiB boundaries: at least the bytes asked for, to the end
/// of the page they end in.
struct FilePagesTests {
    @Test func readsEndOnAPageBoundary() {
        #expect(FilePages.countToBoundary(from: 0, atLeast: 282) == 4096)
        #expect(FilePages.countToBoundary(from: 4000, atLeast: 64) == 96)
        #expect(FilePages.countToBoundary(from: 4090, atLeast: 64) == 4102)
        #expect(FilePages.countToBoundary(from: 4096, atLeast: 4096) == 4096)
        #expect(FilePages.countToBoundary(from: 4096, atLeast: 0) == 4096)
        #expect(FilePages.countToBoundary(from: 100, atLeast: 10_000) == 12288 - 100)
    }
}
