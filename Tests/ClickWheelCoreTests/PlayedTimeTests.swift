import ClickWheelCore
import ClickWheelTestKit
import Testing

/// MPD's `playtime`: the engine counts the time the player spends playing, from the events' own times
/// (no clock of its own), pauses and stops left out.
@Suite struct PlayedTimeTests {
    @Test func spansOfPlayingAddUp() {
        var t = PlayedTime()
        #expect(t.milliseconds(at: .ms(5000)) == 0)
        t.update(playing: true, at: .ms(1000))
        t.update(playing: true, at: .ms(1500))  // still playing: the span goes on from 1000
        #expect(t.milliseconds(at: .ms(2250)) == 1250 && t.isPlaying)
        t.update(playing: false, at: .ms(3000))
        #expect(t.milliseconds(at: .ms(9000)) == 2000 && !t.isPlaying)
        t.update(playing: true, at: .ms(10_000))
        #expect(t.milliseconds(at: .ms(10_500)) == 2500)
    }

    @Test func theEngineCountsPlayingNotPausedOrStopped() {
        var h = PlayQueueTests.engine()
        PlayQueueTests.control(&h, .add([1, 2, 3], at: nil))
        h.wait(ms: 1000)
        #expect(h.engine.playedMS == 0)  // a queue, nothing playing
        PlayQueueTests.control(&h, .play(position: 0))
        h.wait(ms: 3000)
        #expect(h.engine.playedMS == 3000)
        PlayQueueTests.control(&h, .pause(true))
        h.wait(ms: 2000)
        #expect(h.engine.playedMS == 3000)
        // Resumed by a client, paused by the playback shell's own report 510 ms later.
        PlayQueueTests.control(&h, .pause(false))
        h.wait(ms: 500)
        h.report(.paused)
        h.wait(ms: 700)
        #expect(h.engine.playedMS == 3510)
        h.report(.resumed)
        h.wait(ms: 400)
        PlayQueueTests.control(&h, .stop)
        let stopped = h.engine.playedMS
        #expect(stopped == 3910)
        h.wait(ms: 1000)
        #expect(h.engine.playedMS == stopped)
    }
}
