import Foundation
import Testing

@testable import Playback

// The parts of the audio thread's state (`PlayerLoopState.swift`), each on its own: their transitions and
// the invariants they keep. No audio, no sound server, no clock (times are handed in).

@Suite struct OutputLinkTests {
    typealias Link = PlayerLoop.OutputLink
    let t0 = Date(timeIntervalSinceReferenceDate: 1_000)

    @Test func startsDisconnectedAndDueAtOnce() {
        let link = Link()
        #expect(!link.isConnected)
        #expect(link.retryAt == .distantPast)
        #expect(link.failure == nil)
        #expect(link.health == .audible)
    }

    @Test func anOutageIsReportedOnceUntilAConnect() {
        var link = Link()
        let r1 = link.connectFailed("refused", retryAt: t0)
        #expect(r1, "the first failure is reported")
        let r2 = link.connectFailed("refused again", retryAt: t0 + 0.25)
        #expect(!r2, "the same outage is not reported again")
        #expect(link.failure == "refused again")
        #expect(link.retryAt == t0 + 0.25)
        link.connected()
        #expect(link.isConnected && link.failure == nil && link.retryAt == nil)
        let r3 = link.connectFailed("refused", retryAt: t0 + 1)
        #expect(r3, "a new outage after a connect is reported")
    }

    @Test func aLostServerCountsAsReportedAndKeepsNoRetryOfItsOwn() {
        var link = Link()
        link.connected()
        link.lost(retryAt: t0)
        #expect(link.state == .disconnected(retryAt: t0, failure: nil, reported: true))
        let r4 = link.connectFailed("refused", retryAt: t0 + 0.25)
        #expect(!r4, "serverLost reported the outage already")
    }

    @Test func theFirstStreamIsRetriedOncePerOutage() {
        var link = Link()
        link.connected()
        let r5 = link.retryFirstStream()
        #expect(r5, "no stream opened on this connection yet")
        link.lost(retryAt: t0)
        link.connected()
        let r6 = link.retryFirstStream()
        #expect(!r6, "once per outage: the next failure pauses")
        link.streamOpened()
        #expect(link.state == .connected(streamOpened: true))
        link.lost(retryAt: t0)
        link.connected()
        let r7 = link.retryFirstStream()
        #expect(r7, "a stream opened since: a new outage may retry again")
    }

    @Test func noFirstStreamRetryOnceAStreamOpenedOrWhileDisconnected() {
        var link = Link()
        let r8 = link.retryFirstStream()
        #expect(!r8)
        link.connected()
        link.streamOpened()
        let r9 = link.retryFirstStream()
        #expect(!r9)
    }

    @Test func retryNowOnlyMovesAPendingAttempt() {
        var link = Link()
        _ = link.connectFailed("refused", retryAt: t0 + 5)
        link.retryNow()
        #expect(link.state == .disconnected(retryAt: .distantPast, failure: "refused", reported: true))
        link.connected()
        link.retryNow()
        #expect(link.state == .connected(streamOpened: false))
    }
}

@Suite struct UnderrunLogTests {
    @Test func oneLineAtMostPerIntervalWithTheCountSinceTheLast() {
        let t0 = Date(timeIntervalSinceReferenceDate: 0)
        var log = PlayerLoop.UnderrunLog()
        let r10 = log.count(at: t0)
        #expect(r10 == 1, "the first underrun is logged at once")
        let r11 = log.count(at: t0 + 1)
        #expect(r11 == nil)
        let r12 = log.count(at: t0 + 9.9)
        #expect(r12 == nil)
        #expect(log.unlogged == 2)
        let r13 = log.count(at: t0 + 10)
        #expect(r13 == 3, "the next line carries the ones kept")
        #expect(log.unlogged == 0)
        #expect(log.lastLine == t0 + 10)
        let r14 = log.count(at: t0 + 25)
        #expect(r14 == 1)
    }
}

@Suite struct HeardPositionTests {
    let track = AudioTrack(id: 7, path: "/a.mp3")
    let now = Date(timeIntervalSinceReferenceDate: 0)

    @Test func reportsOncePerSlotAndOnlyWhileReporting() {
        var p = PlayerLoop.HeardPosition()
        let step: Int64 = 44_100
        let r15 = p.hear(track: track, sample: 100, step: step, rate: 44_100, speed: 1, reporting: true, now: now)
        #expect(r15)
        #expect(p.heard?.sample == 100)
        let r16 = p.hear(track: track, sample: 40_000, step: step, rate: 44_100, speed: 1, reporting: true, now: now)
        #expect(!r16)
        let r17 = p.hear(track: track, sample: 50_000, step: step, rate: 44_100, speed: 1, reporting: false, now: now)
        #expect(!r17,
            "paused: no report, and the slot is not taken")
        #expect(p.lastSlot == .init(track: 7, index: 0))
        let r18 = p.hear(track: track, sample: 50_000, step: step, rate: 44_100, speed: 1, reporting: true, now: now)
        #expect(r18)
        #expect(p.lastSlot == .init(track: 7, index: 1))
        let other = AudioTrack(id: 8, path: "/b.mp3")
        let r19 = p.hear(track: other, sample: 50_000, step: step, rate: 44_100, speed: 1, reporting: true, now: now)
        #expect(r19,
            "the same slot of another track is another slot")
    }

    @Test func theNextReportIsDueWhenTheNextSlotIsHeard() {
        var p = PlayerLoop.HeardPosition()
        _ = p.hear(track: track, sample: 33_075, step: 44_100, rate: 44_100, speed: 1, reporting: true, now: now)
        #expect(p.nextDue == now + 0.25)
        _ = p.hear(track: track, sample: 33_075, step: 44_100, rate: 44_100, speed: 1.5, reporting: true, now: now)
        #expect(abs(p.nextDue.timeIntervalSince(now) - 0.25 / 1.5) < 1e-9, "faster speech reaches it sooner")
    }
}

@Suite struct PlayerSettingsTests {
    @Test func eachSettingStaysInItsRange() {
        var s = PlayerLoop.Settings()
        #expect(s.volume == 100 && !s.soundCheck && s.spokenWordSpeed == 1 && s.crossfadeSeconds == 0)
        s.setVolume(130)
        #expect(s.volume == 100)
        s.setVolume(-4)
        #expect(s.volume == 0)
        s.setVolume(42)
        #expect(s.volume == 42)
        s.setCrossfade(-1)
        #expect(s.crossfadeSeconds == 0)
        s.setCrossfade(5)
        #expect(s.crossfadeSeconds == 5)
    }

    @Test func aSpeedChangeIsClampedAndSaysWhetherItChangedAnything() {
        var s = PlayerLoop.Settings()
        let r20 = s.setSpokenWordSpeed(1)
        #expect(!r20, "already 1")
        let r21 = s.setSpokenWordSpeed(9)
        #expect(r21)
        #expect(s.spokenWordSpeed == 3)
        let r22 = s.setSpokenWordSpeed(4)
        #expect(!r22, "clamped to the 3 set already")
        let r23 = s.setSpokenWordSpeed(0.1)
        #expect(r23)
        #expect(s.spokenWordSpeed == 0.5)
    }
}

@Suite struct StreamStateTests {
    @Test func openingStartsTheTimelineAndHistoryInTheStreamsFormat() {
        var s = PlayerLoop.StreamState()
        #expect(s.format == nil)
        let format = PCMFormat(sampleRate: 48_000, channels: 1)
        s.timeline.restart(at: 0, track: AudioTrack(id: 1, path: "/a"), sample: 0, announce: true, speed: 1)
        s.timeline.wrote(frames: 500)
        s.opened(format)
        #expect(s.format == format)
        #expect(s.timeline.rate == 48_000)
        #expect(s.timeline.written == 0 && s.timeline.segments.isEmpty)
        let samples: [Int16] = [1, 2, 3]
        samples.withUnsafeBytes { s.history.record($0) }
        #expect(s.history.frames(from: 0, count: 3) == samples, "the history keeps mono frames")
        s.closed()
        #expect(s.format == nil)
        #expect(s.history.frames(from: 0, count: 3) == samples, "what was written stays until the next stream")
    }
}

@Suite struct TrackDecodersTests {
    @Test func advanceMovesTheQueuedDecoderToCurrentOnce() throws {
        let fixtures = try Fixtures()
        let a = try Decoders.open(AudioTrack(id: 1, path: try fixtures.tone("a", frequency: "440", seconds: 0.2)), soundCheck: false)
        let b = try Decoders.open(AudioTrack(id: 2, path: try fixtures.tone("b", frequency: "660", seconds: 0.2)), soundCheck: false)
        var tracks = PlayerLoop.TrackDecoders()
        let r24 = tracks.advance()
        #expect(r24 == nil, "nothing queued: nothing changes")
        tracks.current = a
        tracks.queued = b
        let r25 = tracks.advance()
        #expect(r25 === b)
        #expect(tracks.current === b && tracks.queued == nil)
        let r26 = tracks.advance()
        #expect(r26 == nil)
        #expect(tracks.current === b, "the current one stays when nothing is queued")
        tracks.overlap = PlayerLoop.Overlap(outgoing: a, outgoingStart: 0, total: 10)
        tracks.closeAll()
        #expect(tracks.current == nil && tracks.queued == nil && tracks.overlap == nil)
    }
}

@Suite struct FadeInTests {
    @Test func rampsOverItsLengthAcrossWritesThenStops() {
        var f = PlayerLoop.FadeIn(length: 100)
        #expect(f == .ramping(offset: 0, length: 100))
        let r27 = f.advance(by: 30)
        #expect(r27! == (offset: 0, length: 100))
        let r28 = f.advance(by: 30)
        #expect(r28! == (offset: 30, length: 100))
        let r29 = f.advance(by: 60)
        #expect(r29! == (offset: 60, length: 100), "the last write covers the rest and more")
        #expect(f == .none)
        let r30 = f.advance(by: 10)
        #expect(r30 == nil)
    }

    @Test func aZeroLengthIsNoFade() {
        var f = PlayerLoop.FadeIn(length: 0)
        #expect(f == .none)
        let r31 = f.advance(by: 1)
        #expect(r31 == nil)
    }

    @Test func theOffsetStaysWithinTheLength() {
        for chunk in [1, 7, 64, 99, 100, 1000] {
            var f = PlayerLoop.FadeIn(length: 100)
            var covered = 0
            while let ramp = f.advance(by: chunk) {
                #expect(ramp.offset == covered && ramp.offset < ramp.length)
                covered += chunk
            }
            #expect(covered >= 100 && covered - chunk < 100, "chunk \(chunk)")
        }
    }
}

@Suite struct CorkTests {
    @Test func onlyTheCorkedStatesAreCorked() {
        #expect(!PlayerLoop.Cork.uncorked.isCorked)
        #expect(PlayerLoop.Cork.corked.isCorked)
        #expect(PlayerLoop.Cork.corkedUntilFilled.isCorked, "waiting for the fade-in is corked too")
        #expect(PlayerLoop.Cork(corked: true) == .corked)
        #expect(PlayerLoop.Cork(corked: false) == .uncorked)
    }
}

@Suite struct ActivityTests {
    let point = PlayerLoop.StartPoint(track: AudioTrack(id: 3, path: "/c"), sample: 4410, announce: false)

    @Test func onlyAFadedPauseNamesWhereItGoesOn() {
        let fading = PlayerLoop.Activity.fadingOut(until: 10, deadline: .distantFuture, resumeFrom: point)
        #expect(fading.resumeFrom == point && fading.isFadedPause)
        #expect(PlayerLoop.Activity.fadedOut(resumeFrom: point).resumeFrom == point)
        for other: PlayerLoop.Activity in [.idle, .playing, .drainingToEnd, .drainingForFormat(sample: 0, announce: true)] {
            #expect(other.resumeFrom == nil && !other.isFadedPause)
        }
    }

    @Test func theFadeHeardKeepsTheResumePoint() {
        var a = PlayerLoop.Activity.fadingOut(until: 10, deadline: .distantFuture, resumeFrom: point)
        a.fadeHeard()
        #expect(a == .fadedOut(resumeFrom: point))
        var playing = PlayerLoop.Activity.playing
        playing.fadeHeard()
        #expect(playing == .playing, "only a fade-out can be heard to end")
    }

    @Test func aTriedStartForgetsThePointButNotThePause() {
        var a = PlayerLoop.Activity.fadedOut(resumeFrom: point)
        a.forgetResumePoint()
        #expect(a == .fadedOut(resumeFrom: nil) && a.isFadedPause)
        var f = PlayerLoop.Activity.fadingOut(until: 10, deadline: .distantFuture, resumeFrom: point)
        f.forgetResumePoint()
        #expect(f == .fadingOut(until: 10, deadline: .distantFuture, resumeFrom: nil))
        var d = PlayerLoop.Activity.drainingForFormat(sample: 5, announce: false)
        d.forgetResumePoint()
        #expect(d == .drainingForFormat(sample: 5, announce: false))
    }
}

@Suite struct SpeechStateTests {
    @Test func aRewriteLandsOnceThenWritesFollow() {
        var s = PlayerLoop.SpeechState()
        let r32 = s.takeRewriteAt()
        #expect(r32 == nil)
        s.rewrite(from: 1000, coverUntil: 5000, old: [100, 100])
        #expect(s.coverUntil == 5000)
        let r33 = s.takeRewriteAt()
        #expect(r33 == 1000)
        let r34 = s.takeRewriteAt()
        #expect(r34 == nil, "the next write goes after the last")
        #expect(s.coverUntil == 5000, "the cover stays until a start")
        s.endRewrite()
        #expect(s.coverUntil == 0 && s.fade == nil && s.rewriteAt == nil)
    }

    @Test func theOldAudioFadesOutLinearlyAcrossWrites() {
        var s = PlayerLoop.SpeechState()
        // 3 stereo frames of old audio at 300; the new audio is silence: what is heard is the old fading.
        s.rewrite(from: 0, coverUntil: 0, old: [300, -300, 300, -300, 300, -300])
        var first: [Int16] = [0, 0, 0, 0]
        first.withUnsafeMutableBufferPointer { s.mixFade(into: $0, frames: 2, channels: 2) }
        #expect(first == [225, -225, 150, -150], "old × (1 - f/4) for f = 1, 2")
        #expect(s.fade?.done == 2)
        var second: [Int16] = [1000, 1000, 1000, 1000]
        second.withUnsafeMutableBufferPointer { s.mixFade(into: $0, frames: 2, channels: 2) }
        #expect(second == [825, 675, 1000, 1000], "the third frame mixed, the fourth is past the fade")
        #expect(s.fade == nil)
    }
}

@Suite struct ScratchBuffersTests {
    @Test func twoSeparateBuffersOfTheSameSize() {
        let b = PlayerLoop.ScratchBuffers()
        defer { b.deallocate() }
        #expect(b.main.count == b.overlap.count && b.main.count >= 4096)
        #expect(b.main.baseAddress != b.overlap.baseAddress)
    }
}
