import ClickWheelCore
import Testing

@Suite struct GestureKeymapTests {
    @Test func shortPressIsAClickLongPressAHoldWithRepeats() {
        var g = ButtonGestures(holdMS: 600, repeatMS: 200)
        #expect(g.feed(.select, .down, at: .ms(0)).isEmpty)
        #expect(g.feed(.select, .up, at: .ms(599)) == [.click(.select)])
        #expect(g.feed(.next, .down, at: .ms(1000)).isEmpty)
        #expect(g.tick(at: .ms(1500)).isEmpty)
        #expect(g.tick(at: .ms(1600)) == [.hold(.next)])
        #expect(g.tick(at: .ms(2050)) == [.repeatHold(.next, count: 1), .repeatHold(.next, count: 2)])
        #expect(g.feed(.next, .up, at: .ms(2100)) == [.released(.next)])
        #expect(!g.anyDown)
    }

    @Test func holdIsRecognisedAtReleaseWithoutTicks() {
        var g = ButtonGestures(holdMS: 600)
        _ = g.feed(.menu, .down, at: .ms(0))
        #expect(g.feed(.menu, .up, at: .ms(700)) == [.hold(.menu), .released(.menu)])
    }

    @Test func configurableHoldThreshold() {
        var g = ButtonGestures(holdMS: 1000)
        _ = g.feed(.menu, .down, at: .ms(0))
        #expect(g.feed(.menu, .up, at: .ms(800)) == [.click(.menu)])
    }

    @Test func keymapFallsBackThroughParentsAndLockedSwallowsAll() {
        let k = Keymap.ipod
        #expect(k.action(for: .wheel, in: .menu) == .scroll)
        #expect(k.action(for: .wheel, in: .nowPlaying) == .volume)
        #expect(k.action(for: .wheel, in: .scrubbing) == .scrub)
        // Scrubbing has no entry for select: Now Playing's applies.
        #expect(k.action(for: .click(.select), in: .scrubbing) == .cycleNowPlaying)
        #expect(k.action(for: .click(.menu), in: .scrubbing) == .back)
        #expect(k.action(for: .click(.menu), in: .locked) == nil)
        #expect(k.action(for: .hold(.playPause), in: .locked) == .toggleLock)
    }
}
