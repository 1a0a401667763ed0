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
}
