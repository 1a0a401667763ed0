import ClickWheelConfig
import Foundation
import Testing

/// `web` (the web remote's HOST:PORT): off by default, from the file, the environment or the flag.
@Suite struct WebConfigTests {
    @Test func offByDefaultThenFromTheFileAndTheEnvironment() throws {
        let loader = ConfigLoader(environment: ["HOME": "/home/pi"])
        #expect(try loader.load(file: nil).web == nil)
        let path = "/tmp/cw-web-\(UUID().uuidString.prefix(8)).yaml"
        defer { unlink(path) }
        try "web: 0.0.0.0:8080\npassword: pw\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try loader.load(file: path).web == "0.0.0.0:8080")
        let env = ConfigLoader(environment: ["HOME": "/h", "CLICKWHEEL_WEB": "localhost"])
        do {
            _ = try env.load(file: path)
            Issue.record("a web address without a port was accepted")
        } catch {
            #expect(error.description.contains("CLICKWHEEL_WEB: 'localhost': must be HOST:PORT, e.g. 127.0.0.1:8080"), "\(error)")
        }
    }
}
