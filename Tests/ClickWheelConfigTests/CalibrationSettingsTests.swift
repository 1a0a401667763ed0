import ClickWheelConfig
import ClickWheelCore
import ClickWheelTestKit
import Foundation
import Testing

/// What Settings → Wheel's Save (and `clickwheel calibrate --write`) does to a real configuration
/// file on disk through `CalibrationSettings`: the keys change in place, comments and other keys stay,
/// a missing file is created, a file that cannot be written is left alone; and the running
/// configuration gets the same values the file would give it after a restart.
@Suite struct CalibrationSettingsTests {
    static let rotary = CalibrationResult(
        wheel: .rotary(axis: EvdevCode.relX, stepsPerDetent: 2, eventsPerTurn: 40), inverted: true,
        selectKey: EvdevCode.keyEnter)
    static let ring = CalibrationResult(
        wheel: .touchRing(TouchRingDecoder.Ring(centerX: 600.4, centerY: 449.6, radius: 300.2), degreesPerStep: 15),
        inverted: false, selectKey: nil)

    static let yaml = ConfigFixtures.commented

    /// A fresh directory, removed afterwards.
    static func withDirectory(_ body: (String) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-calsettings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try body(dir.path)
    }

    @Test func aRotaryCalibrationEditsTheFileKeepingComments() throws {
        try Self.withDirectory { dir in
            let path = dir + "/clickwheel.yaml"
            try Self.yaml.write(toFile: path, atomically: false, encoding: .utf8)
            let written = try CalibrationSettings.write(Self.rotary, toFile: path) { _ in "KEY_ENTER" }
            #expect(written.map(\.key) == ["steps_per_detent", "invert_wheel", "select_key"])
            #expect(
                try String(contentsOfFile: path, encoding: .utf8) == """
                    # Kitchen Pi: do not lose this comment.
                    music: ~/Music            # the NAS

                    input: [auto]
                    steps_per_detent: 2       # events per detent of a rotary encoder: 1, 2 or 4
                    invert_wheel: true        # clockwise moves down unless true
                    volume: 40
                    select_key: 28    # KEY_ENTER

                    """)
            // What the service loads at its next start is what it applied live.
            let loaded = try ConfigLoader(environment: ["HOME": dir]).load(file: path)
            let running = ConfigLoader(environment: ["HOME": dir]).defaults().calibrated(by: Self.rotary)
            #expect(loaded.stepsPerDetent == 2 && loaded.invertWheel && loaded.selectKey == 28)
            #expect(
                running.stepsPerDetent == loaded.stepsPerDetent && running.invertWheel == loaded.invertWheel
                    && running.selectKey == loaded.selectKey)
        }
    }

    @Test func aTouchRingIsAppendedInWholeUnits() throws {
        try Self.withDirectory { dir in
            let path = dir + "/clickwheel.yaml"
            try "# only a comment\nvolume: 40\n".write(toFile: path, atomically: false, encoding: .utf8)
            try CalibrationSettings.write(Self.ring, toFile: path)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.hasPrefix("# only a comment\nvolume: 40\n"))
            #expect(text.contains("touch_ring: 600,450,300    # centre x, y and radius in device units (calibrated)"))
            #expect(text.contains("degrees_per_step: 15    # touch ring: degrees per step"))
            #expect(text.contains("invert_wheel: false"))
            #expect(!text.contains("select_key"))
            let c = ConfigLoader(environment: ["HOME": dir]).defaults().calibrated(by: Self.ring)
            #expect(c.touchRing == TouchRingDecoder.Ring(centerX: 600, centerY: 450, radius: 300))
            #expect(c.degreesPerStep == 15 && !c.invertWheel && c.selectKey == nil)
        }
    }

    @Test func aMissingFileIsCreated() throws {
        try Self.withDirectory { dir in
            let path = dir + "/new.yaml"
            try CalibrationSettings.write(Self.rotary, toFile: path)
            let loaded = try ConfigLoader(environment: ["HOME": dir]).load(file: path)
            #expect(loaded.stepsPerDetent == 2 && loaded.invertWheel && loaded.selectKey == 28)
        }
    }

    @Test func aFileThatCannotBeWrittenIsAnErrorAndUnchanged() throws {
        try Self.withDirectory { dir in
            #expect(throws: ConfigFileEditor.Failure.self) {
                try CalibrationSettings.write(Self.rotary, toFile: dir + "/no/such/dir/clickwheel.yaml")
            }
            let path = dir + "/broken.yaml"
            try "music: [unclosed\n".write(toFile: path, atomically: false, encoding: .utf8)
            #expect(throws: ConfigFileEditor.Failure.self) {
                try CalibrationSettings.write(Self.rotary, toFile: path)
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "music: [unclosed\n")
        }
    }
}
