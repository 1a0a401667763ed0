import ClickWheelConfig
import ClickWheelCore
import Foundation
import Testing

@Suite struct ConfigLoaderTests {
    let dir: URL = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("cw-config-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }()

    func file(_ text: String) throws -> String {
        let url = dir.appendingPathComponent("clickwheel.yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    let loader = ConfigLoader(environment: ["HOME": "/home/pi", "XDG_RUNTIME_DIR": "/run/user/1000"])

    @Test func defaultsFollowTheCommandLineContract() throws {
        let c = try loader.load(file: nil)
        #expect(c.music == "/home/pi/Music")
        #expect(c.db == "/home/pi/.local/share/clickwheel/library.sqlite")
        #expect(c.socket == "/run/user/1000/clickwheel/socket")
        #expect(c.lcd == DisplayGeometry(columns: 20, rows: 4))
        #expect(c.display == nil && c.output == .pulse && c.volume == 50)
    }

    @Test func aFileSetsEveryKindOfValue() throws {
        let path = try file("""
            # a Pi with a 16x2 LCD behind LCDd
            music: ~/Musik
            db: /var/lib/clickwheel/library.sqlite
            display: lcdproc
            lcd: 16x2
            lcdproc: 192.0.2.1:13667
            i2c_address: 0x3f
            input: [/dev/input/clickwheel-rotary, keyboard]
            steps_per_detent: 4
            invert_wheel: yes
            acceleration: fast
            volume: 35
            """)
        let c = try loader.load(file: path)
        #expect(c.music == "/home/pi/Musik")
        #expect(c.db == "/var/lib/clickwheel/library.sqlite")
        #expect(c.display == .lcdproc && c.lcd == DisplayGeometry(columns: 16, rows: 2) && c.lcdproc == "192.0.2.1:13667")
        #expect(c.i2cAddress == 0x3F)
        #expect(c.input == ["/dev/input/clickwheel-rotary", "keyboard"])
        #expect(c.stepsPerDetent == 4 && c.invertWheel && c.acceleration == .fast && c.volume == 35)
    }

    @Test func badValuesAndUnknownKeysAreReportedWithFileLineAndColumn() throws {
        let path = try file("""
            music: /srv/music
            lcd: 16x2

            volume: 150
            volum: 20
            display: [terminal]
            """)
        do {
            _ = try loader.load(file: path)
            Issue.record("a bad file was accepted")
        } catch {
            #expect(error.errors.map(\.description) == [
                "clickwheel.yaml:4:9: 'volume' must be 0–100",
                "clickwheel.yaml:5:1: unknown key 'volum' (did you mean 'volume'?)",
                "clickwheel.yaml:6:10: 'display' must be a single value",
            ])
        }
    }

    @Test func environmentOverridesTheFileAndFlagsOverrideBoth() throws {
        let path = try file("lcd: 16x2\nvolume: 20\n")
        var env = ConfigLoader(environment: ["HOME": "/h", "CLICKWHEEL_LCD": "40x4", "CLICKWHEEL_VOLUME": "30"])
        var c = try env.load(file: path)
        #expect(c.lcd == DisplayGeometry(columns: 40, rows: 4) && c.volume == 30)
        c = try env.load(file: path, flags: ["lcd": "20x2"])
        #expect(c.lcd == DisplayGeometry(columns: 20, rows: 2) && c.volume == 30)
        env.environment["CLICKWHEEL_VOLUME"] = "loud"
        #expect(throws: ConfigErrors.self) { try env.load(file: path) }
        do { _ = try env.load(file: path) } catch {
            #expect(error.description == "environment CLICKWHEEL_VOLUME: 'loud': must be 0–100")
        }
    }

    @Test func brokenYAMLAndMissingFilesAreErrorsNotCrashes() throws {
        #expect(throws: ConfigErrors.self) { try loader.load(file: try file("music: [unclosed\n")) }
        #expect(throws: ConfigErrors.self) { try loader.load(file: try file("- just\n- a list\n")) }
        #expect(throws: ConfigErrors.self) { try loader.load(file: dir.appendingPathComponent("missing.yaml").path) }
        #expect(try loader.load(file: try file("")).volume == 50)  // empty: all defaults
    }

    @Test func theCommentedExampleInContribIsValid() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let c = try loader.load(file: root.appendingPathComponent("contrib/clickwheel.example.yaml").path)
        #expect(c.music == "/home/pi/Music")
    }
}
