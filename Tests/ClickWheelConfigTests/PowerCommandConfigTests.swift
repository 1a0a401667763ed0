import ClickWheelConfig
import Foundation
import Testing

/// `shutdown_command` and `restart_command`: defaults, the file, the environment, and empty values refused.
@Suite struct PowerCommandConfigTests {
    @Test func defaultsFileAndEnvironment() throws {
        let loader = ConfigLoader(environment: ["HOME": "/home/pi"])
        var c = try loader.load(file: nil)
        #expect(c.shutdownCommand == "systemctl poweroff" && c.restartCommand == "systemctl reboot")
        let path = "/tmp/cw-power-\(UUID().uuidString.prefix(8)).yaml"
        defer { unlink(path) }
        try "shutdown_command: sudo /sbin/poweroff\nrestart_command: ''\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ConfigErrors.self) { try loader.load(file: path) }
        do { _ = try loader.load(file: path) } catch {
            #expect(error.description.hasSuffix(":2:18: 'restart_command' must not be empty"), "\(error)")
        }
        try "shutdown_command: sudo /sbin/poweroff\n".write(toFile: path, atomically: true, encoding: .utf8)
        c = try loader.load(file: path)
        #expect(c.shutdownCommand == "sudo /sbin/poweroff" && c.restartCommand == "systemctl reboot")
        let env = ConfigLoader(environment: ["HOME": "/h", "CLICKWHEEL_RESTART_COMMAND": "touch /tmp/x"])
        c = try env.load(file: path)
        #expect(c.shutdownCommand == "sudo /sbin/poweroff" && c.restartCommand == "touch /tmp/x")
    }
}
