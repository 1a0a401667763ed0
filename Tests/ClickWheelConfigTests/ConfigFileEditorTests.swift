import ClickWheelConfig
import ClickWheelCore
import Foundation
import Testing

/// Editing the YAML file in place (what `clickwheel calibrate --write` does) and the calibration keys.
@Suite struct ConfigFileEditorTests {
    typealias Setting = ConfigFileEditor.Setting

    @Test func keysThatAreThereChangeInPlaceKeepingCommentsAndTheRest() throws {
        let text = """
            # My Pi.
            music: ~/Music   # the NAS mount

            input: [auto]
            steps_per_detent: 1       # events per detent of a rotary encoder: 1, 2 or 4
            invert_wheel: false       # clockwise moves down unless true
            volume: 40
            """
        let edited = try ConfigFileEditor.apply(
            [Setting(key: "steps_per_detent", value: "2"), Setting(key: "invert_wheel", value: "true")], to: text)
        #expect(
            edited == """
                # My Pi.
                music: ~/Music   # the NAS mount

                input: [auto]
                steps_per_detent: 2       # events per detent of a rotary encoder: 1, 2 or 4
                invert_wheel: true        # clockwise moves down unless true
                volume: 40
                """)
    }

    /// Fuzz target 4's finding: a value with a line break was written as is; YAML read the next line as
    /// part of it, so the edit loaded, but the next edit of that key was refused (a multi-line value).
    /// Now refused at once, the file unchanged.
    @Test func aValueWithALineBreakIsRefused() throws {
        for value in ["\n15\r", "15\n", "1\r\n2", "a\u{2028}b"] {
            #expect(throws: ConfigFileEditor.Failure.self) {
                try ConfigFileEditor.apply([Setting(key: "degrees_per_step", value: value)], to: "volume: 40\n")
            }
        }
        let edited = try ConfigFileEditor.apply([Setting(key: "degrees_per_step", value: "15")], to: "volume: 40\n")
        #expect(try ConfigFileEditor.apply([Setting(key: "degrees_per_step", value: "15")], to: edited) == edited)
    }

    /// Fuzz target 4's second finding: a value's trailing spaces were written, then kept as the line's
    /// tail at the next edit with the new value's own after them: the line grew at every edit.
    @Test func spacesAroundAValueAreNotWritten() throws {
        let setting = Setting(key: "input", value: "  /dev/input/event3   ")
        let edited = try ConfigFileEditor.apply([setting], to: "volume: 40\n")
        #expect(edited == "volume: 40\ninput: /dev/input/event3\n")
        #expect(try ConfigFileEditor.apply([setting], to: edited) == edited)
        let commented = "input: auto    # which device\n"
        #expect(try ConfigFileEditor.apply([setting], to: commented) == "input: /dev/input/event3 # which device\n")
    }

    /// Fuzz target 4's third finding: a value holding a comment (`debug    # more`) was written as is; the
    /// next edit replaced the value before the comment and kept the old comment after the new one.
    @Test func aValueHoldingACommentIsRefused() throws {
        for value in ["debug    # more detail", "#debug", "a\t#b"] {
            #expect(throws: ConfigFileEditor.Failure.self) {
                try ConfigFileEditor.apply([Setting(key: "log_level", value: value)], to: "volume: 40\n")
            }
        }
        let edited = try ConfigFileEditor.apply([Setting(key: "music", value: "/srv/music#1")], to: "volume: 40\n")
        #expect(edited == "volume: 40\nmusic: /srv/music#1\n")
    }

    /// Fuzz target 4's fourth finding: lines were cut at LF only, Yams counts a lone CR (and CR LF, NEL,
    /// LS, PS) as a line break too, so after a lone CR the edit was refused or went to another line.
    /// Line breaks are kept as they were.
    @Test func linesAreCountedAsYAMLCountsThem() throws {
        let setting = Setting(key: "steps_per_detent", value: "2")
        let crlf = "# Windows\r\nsteps_per_detent: 1\r\nvolume: 40\r\n"
        #expect(try ConfigFileEditor.apply([setting], to: crlf) == "# Windows\r\nsteps_per_detent: 2\r\nvolume: 40\r\n")
        let cr = "\r# old Mac\rsteps_per_detent: 1\rvolume: 40"
        #expect(try ConfigFileEditor.apply([setting], to: cr) == "\r# old Mac\rsteps_per_detent: 2\rvolume: 40")
        let appended = try ConfigFileEditor.apply([setting], to: "\r# comment\r\n")
        #expect(appended == "\r# comment\r\nsteps_per_detent: 2\n")
        #expect(try ConfigFileEditor.apply([setting], to: appended) == appended)
    }

    @Test func missingKeysAreAppendedWithTheirComment() throws {
        let edited = try ConfigFileEditor.apply(
            [
                Setting(key: "touch_ring", value: "600,450,300", comment: "centre and radius"),
                Setting(key: "select_key", value: "272", comment: "BTN_LEFT"),
            ], to: "# only a comment\nvolume: 40")
        #expect(
            edited == "# only a comment\nvolume: 40\ntouch_ring: 600,450,300    # centre and radius\n"
                + "select_key: 272    # BTN_LEFT\n")
        #expect(
            try ConfigFileEditor.apply([Setting(key: "invert_wheel", value: "true")], to: "") == "invert_wheel: true\n")
    }

    @Test func quotedAndFlowValuesAreReplacedWhole() throws {
        let text = "touch_ring: [512, 512, 400]  # old\ndegrees_per_step: \"15\"\n"
        let edited = try ConfigFileEditor.apply(
            [Setting(key: "touch_ring", value: "600,450,300"), Setting(key: "degrees_per_step", value: "12")],
            to: text)
        #expect(edited == "touch_ring: 600,450,300      # old\ndegrees_per_step: 12\n", "the comment keeps its column")
    }

    @Test func whatCannotBeEditedSafelyIsRefused() {
        #expect(throws: ConfigFileEditor.Failure.self) {
            try ConfigFileEditor.apply(
                [Setting(key: "touch_ring", value: "1,2,3")], to: "touch_ring:\n  - 1\n  - 2\n  - 3\n")
        }
        #expect(throws: ConfigFileEditor.Failure.self) {
            try ConfigFileEditor.apply([Setting(key: "invert_wheel", value: "true")], to: "{volume: 40}")
        }
        #expect(throws: ConfigFileEditor.Failure.self) {
            try ConfigFileEditor.apply([Setting(key: "steps_per_detent", value: "3")], to: "volume: 40\n")
        }
    }

    /// Found by the `config` fuzz target (issue 21, after 1,032 s of its long run): a plain value that goes
    /// on over a more-indented line (`music: a` then `   b` reads "a b") had its first line replaced and
    /// kept the rest, so the edit read back as "NEW b".
    @Test func aPlainValueOverSeveralLinesIsRefused() throws {
        let text = "music: /srv/my\n   music\nvolume: 40\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cw-plain-\(UUID().uuidString).yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try ConfigLoader(environment: [:]).load(file: file.path).music == "/srv/my music")
        #expect(throws: ConfigFileEditor.Failure.self) {
            try ConfigFileEditor.apply([Setting(key: "music", value: "/srv/other")], to: text)
        }
        // The other keys of such a file still change.
        let edited = try ConfigFileEditor.apply([Setting(key: "volume", value: "50")], to: text)
        #expect(edited == "music: /srv/my\n   music\nvolume: 50\n")
    }

    /// Found by the `config` fuzz target (27 s into its second long run, and 90 s into its third): a value
    /// YAML reads as something else (`!g`, a tag with an empty value; `'…'##0`, a quoted value with more
    /// after its quote) was written; its next edit was refused, or kept the rest and added it again.
    @Test func aValueNotReadBackAsWrittenIsRefused() throws {
        for value in ["!g", "&a x", "*a", "!!str 5", "'halt'##0", "\"halt\"x"] {
            #expect(throws: ConfigFileEditor.Failure.self, "\(value)") {
                try ConfigFileEditor.apply([Setting(key: "music", value: value)], to: "")
            }
        }
        // Plain, quoted and flow values are written as given.
        #expect(try ConfigFileEditor.apply([Setting(key: "music", value: "/srv/music")], to: "") == "music: /srv/music\n")
        #expect(try ConfigFileEditor.apply([Setting(key: "music", value: "'/srv/my music'")], to: "") == "music: '/srv/my music'\n")
        #expect(try ConfigFileEditor.apply([Setting(key: "input", value: "[keyboard, none]")], to: "") == "input: [keyboard, none]\n")
    }

    @Test func writeReplacesTheFileAtomicallyWithItsMode() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("clickwheel.yaml").path
        try "volume: 40\n".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o640)
        try ConfigFileEditor.write("volume: 41\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "volume: 41\n")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["clickwheel.yaml"], "no temp left")
    }

    @Test func theCalibrationKeysLoadAndAreChecked() throws {
        let loader = ConfigLoader(environment: ["HOME": "/home/pi", "CLICKWHEEL_SELECT_KEY": "0x110"])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("clickwheel.yaml").path
        try "touch_ring: 600,450.5,300\nselect_key: 28\n".write(toFile: path, atomically: false, encoding: .utf8)
        let c = try loader.load(file: path)
        #expect(c.touchRing == TouchRingDecoder.Ring(centerX: 600, centerY: 450.5, radius: 300))
        #expect(c.selectKey == 0x110, "the environment wins over the file")
        try "touch_ring: [1, 2]\nselect_key: 1000\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: ConfigErrors.self) { try ConfigLoader(environment: ["HOME": "/h"]).load(file: path) }
        do {
            _ = try ConfigLoader(environment: ["HOME": "/h"]).load(file: path)
        } catch {
            #expect(error.errors.map(\.location) == ["clickwheel.yaml:1:13", "clickwheel.yaml:2:13"])
        }
        let flags = try ConfigLoader(environment: ["HOME": "/h"]).load(file: nil, flags: ["touch_ring": "1,2,3"])
        #expect(flags.touchRing?.radius == 3)
    }
}
