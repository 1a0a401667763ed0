import Testing

@testable import Playback

/// The stream-frame → track mapping, without audio.
@Suite struct TimelineTests {
    let a = AudioTrack(id: 1, path: "/a.mp3")
    let b = AudioTrack(id: 2, path: "/b.mp3")
    let c = AudioTrack(id: 3, path: "/c.mp3")

    @Test func announcesTheFirstTrackOnceItIsHeard() {
        var t = Timeline(rate: 44_100)
        t.restart(at: 1000, track: a, sample: 0, announce: true)
        t.wrote(frames: 5000)
        #expect(t.advance(to: 900).isEmpty)
        #expect(t.position(at: 900) == nil)
        #expect(t.advance(to: 1000).isEmpty)
        #expect(t.advance(to: 1001) == [.started(a)])
        #expect(t.advance(to: 2000).isEmpty)
        #expect(t.position(at: 3000)?.sample == 2000)
    }

    @Test func gaplessChangesFinishOneAndStartTheNext() {
        var t = Timeline(rate: 44_100)
        t.restart(at: 0, track: a, sample: 0, announce: true)
        t.wrote(frames: 100)
        t.append(b)
        t.wrote(frames: 10)
        t.append(c)
        t.wrote(frames: 100)
        #expect(t.advance(to: 50) == [.started(a)])
        // The clock jumps over all of b (a very short track): it is still started and finished in order.
        #expect(t.advance(to: 150) == [.finished(a), .started(b), .finished(b), .started(c)])
        #expect(t.position(at: 150)?.track == c)
        #expect(t.position(at: 150)?.sample == 40)
        #expect(t.finishAll() == [.finished(c)])
        #expect(t.segments.isEmpty)
    }

    @Test func aSeekWithinTheTrackIsNotAnnouncedAgain() {
        var t = Timeline(rate: 44_100)
        t.restart(at: 500, track: a, sample: 88_200, announce: false)
        t.wrote(frames: 1000)
        #expect(t.advance(to: 800).isEmpty)
        #expect(t.position(at: 800)?.sample == 88_500)
    }

    @Test func finishAllStartsWhatWasNeverHeard() {
        var t = Timeline(rate: 44_100)
        t.restart(at: 0, track: a, sample: 0, announce: true)
        t.wrote(frames: 10)
        #expect(t.finishAll() == [.started(a), .finished(a)])
    }

    @Test func aCutDropsWhatFollowsAndKeepsWhatWasHeard() {
        var t = Timeline(rate: 44_100)
        t.restart(at: 0, track: a, sample: 0, announce: true)
        t.wrote(frames: 100)
        t.append(b)
        t.wrote(frames: 100)
        #expect(t.advance(to: 50) == [.started(a)])
        #expect(t.framesInSegment(from: 60) == 40)
        #expect(t.isHeard(at: 60))
        #expect(!t.isHeard(at: 150))
        t.cut(at: 60)
        t.wrote(frames: 10)
        #expect(t.segments.count == 1)
        #expect(t.framesInSegment(from: 60) == 10)
        #expect(t.position(at: 70)?.sample == 70)
        #expect(t.advance(to: 70).isEmpty)
    }

    @Test func aFasterSegmentCountsTheTracksOwnSamples() {
        var t = Timeline(rate: 44_100)
        t.restart(at: 0, track: a, sample: 1000, announce: true, speed: 1.5)
        t.wrote(frames: 200)
        #expect(t.position(at: 100)?.sample == 1150)
        #expect(t.speed(at: 100) == 1.5)
    }

    @Test func aSpeedChangeContinuesTheTrackWithoutTransitions() {
        var t = Timeline(rate: 44_100)
        t.restart(at: 0, track: a, sample: 0, announce: true)
        t.wrote(frames: 300)
        #expect(t.advance(to: 50) == [.started(a)])
        // From frame 100 on (sample 100 of a), written again at 2x.
        t.respeed(at: 100, track: a, sample: 100, speed: 2)
        #expect(t.written == 100)
        t.wrote(frames: 100)
        #expect(t.position(at: 150)?.sample == 200)
        #expect(t.advance(to: 150).isEmpty)
        #expect(t.isHeard(at: 150))
        // The next track comes out after what the speech stage still holds (past `written`).
        t.append(b, at: 220, speed: 2)
        t.wrote(frames: 50)
        #expect(t.framesInSegment(from: 150) == 70)
        #expect(t.advance(to: 230) == [.finished(a), .started(b)])
        #expect(t.finishAll() == [.finished(b)])
    }

    @Test func aSpeedChangeBeforeAnythingWasHeardStartsTheTrackOnce() {
        var t = Timeline(rate: 44_100)
        t.restart(at: 0, track: a, sample: 0, announce: true)
        t.wrote(frames: 100)
        t.respeed(at: 50, track: a, sample: 50, speed: 1.5)
        t.wrote(frames: 100)
        #expect(t.advance(to: 120) == [.started(a)])
        #expect(t.finishAll() == [.finished(a)])
    }
}
