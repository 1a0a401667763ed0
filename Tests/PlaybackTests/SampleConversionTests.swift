@testable import Playback
import Testing

/// The one rounding every decoder's samples go through (`S16`) and the queue's bulk appends
/// (`PCMQueue.append(frames:interleaved:)`, `append(frames:planes:)`), against the plain definitions.
@Suite struct SampleConversionTests {
    /// What `S16.from` is defined to give: `x * unit * gain` in `Float`, rounded half away from zero by
    /// the standard library, clipped.
    static func reference(_ x: Float, unit: Float, gain: Float) -> Int16 {
        let v = (x * unit * gain).rounded(.toNearestOrAwayFromZero)
        if v.isNaN { return 0 }
        if v >= 32767 { return .max }
        if v <= -32768 { return .min }
        return Int16(v)
    }

    @Test func floatRoundingMatchesTheStandardLibraryOverTheWholeRange() {
        // Every 262,139th bit pattern of all 2^32 (both signs, subnormals, NaNs, infinities; few enough not to
        // hold a pool thread for long while the other suites run), and the values next
        // to each rounding and clipping edge.
        var inputs: [Float] = stride(from: UInt64(0), to: 1 << 32, by: 262_139).map { Float(bitPattern: UInt32($0)) }
        for edge in [0.5, 1.5, 2.5, 16383.5, 32766.5, 32767, 32767.5, 32768, 32768.5] as [Float] {
            for v in [edge, -edge] {
                inputs += [v, v.nextUp, v.nextDown, v.nextUp.nextUp, v.nextDown.nextDown]
            }
        }
        inputs += [0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude]
        var mismatches: [Float] = []
        for gain in [1, 0.5, 1.7] as [Float] {
            for x in inputs where S16.from(x / 32768, gain: gain) != Self.reference(x / 32768, unit: 32768, gain: gain) {
                mismatches.append(x)
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }

    @Test func integerSamplesWithAGainRoundLikeFloats() {
        for x in stride(from: Int32(-32768), through: 32767, by: 7) {
            #expect(S16.from(x, bits: 16, gain: 0.5) == Self.reference(Float(x), unit: 1, gain: 0.5))
        }
        #expect(S16.from(Int32(1 << 23 - 1), bits: 24, gain: 1) == .max)
        #expect(S16.from(Int32(-1 << 23), bits: 24, gain: 1) == .min)
    }

    /// The queue's contents after appending through `append`.
    static func drained(_ queue: inout PCMQueue) -> [Int16] {
        var out = [Int16](repeating: 0, count: queue.frames * queue.channels)
        _ = out.withUnsafeMutableBytes { queue.take(into: $0) }
        return out
    }

    @Test(arguments: [1, 2, 6])
    func bulkAppendsGiveWhatThePerSampleAppendGives(channels: Int) {
        let frames = 1000
        let interleaved: [Float] = (0..<frames * channels).map { Float(($0 &* 7919) % 20011 - 10005) / 10000 }
        let planes: [[Float]] = (0..<channels).map { c in (0..<frames).map { interleaved[$0 * channels + c] } }
        let gain: Float = 0.8
        var expected = PCMQueue(sourceChannels: channels, order: .vorbis)
        expected.append(frames: frames - 3) { f, c in S16.from(interleaved[(f + 3) * channels + c], gain: gain) }
        var byPlanes = PCMQueue(sourceChannels: channels, order: .vorbis)
        let pointers = planes.map { UnsafeMutablePointer<Float>.allocate(capacity: $0.count) }
        defer { pointers.forEach { $0.deallocate() } }
        for (p, plane) in zip(pointers, planes) { p.initialize(from: plane, count: plane.count) }
        byPlanes.append(frames: frames - 3, planes: pointers.map { UnsafePointer($0) }, offset: 3) { S16.from($0, gain: gain) }
        var byInterleaved = PCMQueue(sourceChannels: channels, order: .vorbis)
        interleaved.withUnsafeBufferPointer { b in
            byInterleaved.append(frames: frames - 3, interleaved: b.baseAddress! + 3 * channels) { S16.from($0, gain: gain) }
        }
        let want = Self.drained(&expected)
        #expect(want.count == (frames - 3) * min(channels, 2))
        #expect(Self.drained(&byPlanes) == want)
        #expect(Self.drained(&byInterleaved) == want)
    }
}
