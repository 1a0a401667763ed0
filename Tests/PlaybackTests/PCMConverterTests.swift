@testable import Playback
@testable import Snapcast
import Testing

/// What the snapcast output sends: any track's PCM as 44100:16:2 (`PCMConverter`).
@Suite struct PCMConverterTests {
    func convert(_ samples: [Int16], from format: PCMFormat, chunks: Int = 1, gain: Double = 1) -> [Int16] {
        var c = PCMConverter(targetRate: 44_100)
        c.reset(for: format)
        var out: [Int16] = []
        let frames = samples.count / format.channels
        let per = (frames + chunks - 1) / chunks
        for start in stride(from: 0, to: frames, by: per) {
            let part = Array(samples[(start * format.channels)..<(min(frames, start + per) * format.channels)])
            part.withUnsafeBytes { c.convert($0, gain: gain, into: &out) }
        }
        return out
    }

    @Test func stereoAtTheStreamRatePassesBitForBit() {
        let samples: [Int16] = (0..<2000).map { Int16(truncatingIfNeeded: $0 &* 7919) }
        #expect(convert(samples, from: PCMFormat(sampleRate: 44_100, channels: 2), chunks: 3) == samples)
    }

    @Test func monoIsDoubledToBothChannels() {
        let out = convert([100, -200, 300], from: PCMFormat(sampleRate: 44_100, channels: 1))
        #expect(out == [100, 100, -200, -200, 300, 300])
    }

    @Test func anotherRateIsInterpolatedAcrossChunkEdges() {
        // A ramp at 22050 Hz: at 44100 every other output frame falls halfway between two inputs.
        let ramp: [Int16] = (0..<1000).map { Int16($0 * 10) }
        let whole = convert(ramp, from: PCMFormat(sampleRate: 22_050, channels: 1))
        let chunked = convert(ramp, from: PCMFormat(sampleRate: 22_050, channels: 1), chunks: 7)
        #expect(whole == chunked)
        let left = stride(from: 0, to: whole.count, by: 2).map { whole[$0] }
        #expect(left.count >= 1996 && left.count <= 2000)
        #expect(left.prefix(5) == [0, 5, 10, 15, 20])
        // 48 kHz to 44.1 kHz: 480 frames become 441.
        let fast = convert([Int16](repeating: 1000, count: 960), from: PCMFormat(sampleRate: 48_000, channels: 2))
        #expect(abs(fast.count / 2 - 441) <= 1 && fast.allSatisfy { $0 == 1000 })
    }

    @Test func theVolumeScalesTheSamplesOnTheCubicScale() {
        let out = convert([8000, -8000], from: PCMFormat(sampleRate: 44_100, channels: 2), gain: SnapcastSender.gain(50))
        #expect(out == [1000, -1000])
    }
}
