import Testing

@testable import Playback

/// The written-PCM ring a faded pause reads back, without audio.
@Suite struct PCMHistoryTests {
    @Test func keepsTheNewestFramesAcrossTheWrap() {
        // 10 frames of stereo (capacity: 1000 Hz × 0.01 s).
        var h = PCMHistory(format: PCMFormat(sampleRate: 1000, channels: 2), seconds: 0.01)
        h.reset(at: 100)
        for chunk in [0..<7, 7..<16, 16..<19] {
            let samples = chunk.flatMap { [Int16($0), Int16(-$0)] }
            samples.withUnsafeBytes { h.record($0) }
        }
        #expect(h.end == 119)
        #expect(h.frames(from: 108, count: 2) == nil, "frame 108 was overwritten")
        #expect(h.frames(from: 109, count: 10) == (9..<19).flatMap { [Int16($0), Int16(-$0)] })
        #expect(h.frames(from: 115, count: 5) == nil, "past the end")
        let big = (0..<25).flatMap { [Int16($0), Int16(-$0)] }
        big.withUnsafeBytes { h.record($0) }
        #expect(h.frames(from: 134, count: 10) == (15..<25).flatMap { [Int16($0), Int16(-$0)] })
    }
}
