import ClickWheelCore
import ClickWheelTestKit
import Testing

/// Now Playing when no audio output can play: "No audio output" and which outputs, in place of a clock
/// standing at 0:00; only while playing; gone as soon as the playback shell says an output plays again.
@Suite struct NoOutputWalkTests {
    static let pulseDown = OutputProblem(
        outputs: ["This Pi"], message: #"Failed to enable output "This Pi" (pulse); pa_context_connect: Connection refused"#)
    static let bothDown = OutputProblem(
        outputs: ["This Pi", "Snapcast"],
        message: #"Failed to enable output "This Pi" (pulse); pa_context_connect: Connection refused"#)

    /// A song of the sample library playing, on Now Playing.
    static func playing(_ size: String) throws -> EngineHarness {
        var h = EngineHarness(library: Fixtures.sample(), geometry: try #require(DisplayGeometry(size)))
        h.click(.select)  // Music
        h.turn(3)
        h.click(.select)  // Songs
        h.click(.select)  // the first song: Now Playing
        return h
    }

    @Test(arguments: ["16x2", "20x4"])
    func nowPlayingSaysNoAudioOutputAndWhichUntilOneIsBack(size: String) throws {
        var h = try Self.playing(size)
        var walk = WalkRecord()
        walk.snap("playing, the output not heard from yet", h.engine.frame)
        h.report(.outputs(Self.pulseDown))
        #expect(h.lastEffects.contains(.notify(.player)), "MPD idle clients hear of it")
        walk.snap("no sound server: No audio output", h.engine.frame)
        h.wait(ms: 4100)
        walk.snap("4 s later: which output (two rows take turns)", h.engine.frame)
        h.turn(2)
        walk.snap("the wheel: the volume over it", h.engine.frame)
        h.wait(ms: 3000)
        h.report(.outputs(Self.bothDown))
        walk.snap("the volume gone; two outputs down", h.engine.frame)
        h.wait(ms: 4000)
        walk.snap("4 s later", h.engine.frame)
        h.click(.playPause)
        walk.snap("paused: nothing is asked of the outputs, no message", h.engine.frame)
        #expect(h.engine.player.outputProblem == Self.bothDown, "still known, for when it plays again")
        h.click(.playPause)
        walk.snap("playing again: the message again", h.engine.frame)
        h.report(.outputs(nil))
        #expect(h.lastEffects.contains(.notify(.player)))
        walk.snap("an output plays: the progress line is back", h.engine.frame)
        h.report(.outputs(OutputProblem(outputs: [], message: "All audio outputs are disabled")))
        walk.snap("every output turned off", h.engine.frame)
        Golden.check(walk.text, name: "walk-no-output-\(size).txt")
        #expect(h.engine.player.outputProblem?.outputs == [])
    }

    @Test func aProblemWhileStoppedIsKeptQuietlyAndShownWhenPlayStarts() throws {
        var h = EngineHarness(library: Fixtures.sample(), geometry: try #require(DisplayGeometry("20x4")))
        h.report(.outputs(Self.pulseDown))
        #expect(!h.lastEffects.contains(.notify(.player)), "stopped: nothing for idle clients")
        #expect(!h.screenText.contains("No audio output"))
        h.click(.select)  // Music
        h.turn(3)
        h.click(.select)  // Songs
        h.click(.select)  // play the first song
        #expect(h.screen.suffix(2) == ["No audio output     ", "This Pi             "])
        h.report(.outputs(Self.pulseDown))
        #expect(h.lastEffects.isEmpty, "the same problem again changes nothing")
    }
}
