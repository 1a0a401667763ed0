import ClickWheelCore
import ClickWheelTestKit
import Foundation
import Testing

/// Settings → Audiobooks: the spoken-word speed list, frame by frame against golden files for 16x2 and
/// 20x4, the effects it sends to playback, and how it is stored.
@Suite struct SpokenWordSpeedTests {
    @Test(arguments: ["16x2", "20x4"])
    func audiobooksWalk(size: String) throws {
        var h = EngineHarness(library: Fixtures.sample(), geometry: try #require(DisplayGeometry(size)))
        var walk = WalkRecord()
        h.turn(3)
        h.click(.select)  // Settings
        h.turn(30)
        h.turn(-1)  // above Date & Time
        walk.snap("Settings: Audiobooks, at Normal", h.engine.frame)
        h.click(.select)
        walk.snap("Audiobooks: the cursor on the speed in use", h.engine.frame)
        h.turn(1)
        walk.snap("a quarter faster", h.engine.frame)
        h.turn(1)
        walk.snap("Faster", h.engine.frame)
        h.click(.select)
        walk.snap("back in Settings: Audiobooks at Faster", h.engine.frame)
        #expect(h.lastEffects.contains(.playback(.spokenWordSpeed(percent: 150))))
        #expect(h.engine.settings.spokenWordSpeed == 150)
        h.click(.select)
        walk.snap("Audiobooks again: on Faster", h.engine.frame)
        h.turn(-10)
        walk.snap("the slowest", h.engine.frame)
        h.turn(20)
        walk.snap("the fastest", h.engine.frame)
        h.click(.select)
        walk.snap("Settings: Audiobooks at 3x", h.engine.frame)
        #expect(h.lastEffects.contains(.playback(.spokenWordSpeed(percent: 300))))
        #expect(h.lastEffects.contains { if case .persist(let s) = $0 { s.spokenWordSpeed == 300 } else { false } })
        Golden.check(walk.text, name: "walk-spoken-speed-\(size).txt")
    }

    @Test func speedsRunFromHalfToThreeInQuarterSteps() {
        #expect(SpokenWordSpeed.percents == [50, 75, 100, 125, 150, 175, 200, 225, 250, 275, 300])
        #expect(SpokenWordSpeed.percents.map(SpokenWordSpeed.title(of:)) == [
            "0.5x", "Slower", "Normal", "1.25x", "Faster", "1.75x", "2x", "2.25x", "2.5x", "2.75x", "3x",
        ])
        #expect(SpokenWordSpeed.value(125) == 1.25)
        // A value no menu offers (edited by hand) plays at 1x.
        #expect(SpokenWordSpeed.value(110) == 1)
        #expect(SpokenWordSpeed.value(0) == 1)
    }

    @Test func settingsStoredBeforeTheSpeedExistedDecodeAtNormal() throws {
        let old = try JSONDecoder().decode(Settings.self, from: Data(#"{"soundCheck":true,"volume":70}"#.utf8))
        #expect(old.spokenWordSpeed == 100)
        #expect(old.soundCheck)
        var s = Settings()
        s.spokenWordSpeed = 175
        let back = try JSONDecoder().decode(Settings.self, from: JSONEncoder().encode(s))
        #expect(back.spokenWordSpeed == 175)
    }

    @Test func resetSettingsGoesBackToNormal() throws {
        var h = EngineHarness(library: Fixtures.sample(), geometry: try #require(DisplayGeometry("16x2")))
        h.turn(3)
        h.click(.select)  // Settings
        h.turn(30)
        h.turn(-1)  // above Date & Time
        h.click(.select)
        h.turn(-1)
        h.click(.select)  // Slower
        #expect(h.engine.settings.spokenWordSpeed == 75)
        h.turn(-6)
        h.click(.select)  // Reset Settings
        h.turn(1)
        h.click(.select)  // Reset
        #expect(h.engine.settings.spokenWordSpeed == 100)
        #expect(h.lastEffects.contains(.playback(.spokenWordSpeed(percent: 100))))
    }
}
