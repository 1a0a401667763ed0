import Testing

@testable import Playback

/// The PulseAudio stream clock read as frames: the soak (contrib/soak/soak.py) crashed the audio thread
/// ("Not enough bits to represent the passed value" in `playedFrames`) when `pa_stream_get_time` gave a
/// reading past `Int64.max` around a server restart. Such a reading is no time: no position, no trap.
@Suite struct StreamClockTests {
    @Test func readingsAsFrames() {
        #expect(PulseAudioOutput.frames(usec: 0, rate: 44_100) == 0)
        #expect(PulseAudioOutput.frames(usec: 2_000_000, rate: 44_100) == 88_200)
        #expect(PulseAudioOutput.frames(usec: 1_500_000, rate: 48_000) == 72_000)
        #expect(PulseAudioOutput.frames(usec: 22, rate: 44_100) == 0)
        #expect(PulseAudioOutput.frames(usec: 23, rate: 44_100) == 1)
    }

    @Test func readingsThatAreNoTimeGiveNoPosition() {
        #expect(PulseAudioOutput.frames(usec: UInt64.max, rate: 44_100) == nil)  // PA_USEC_INVALID
        #expect(PulseAudioOutput.frames(usec: UInt64(Int64.max) + 1, rate: 44_100) == nil)
        #expect(PulseAudioOutput.frames(usec: UInt64(bitPattern: -5_000), rate: 48_000) == nil)
    }

    @Test func theLargestTimeDoesNotOverflow() {
        // Int64.max microseconds at 48 kHz: 292,471 years of frames, which fit in an Int64.
        let f = PulseAudioOutput.frames(usec: UInt64(Int64.max), rate: 48_000)
        #expect(f == Int64(UInt64(Int64.max) / 1_000_000) * 48_000 + Int64(UInt64(Int64.max) % 1_000_000) * 48_000 / 1_000_000)
        #expect(f.map { $0 > 0 } == true)
    }
}
