import ClickWheelConfig
import Foundation
import Testing

/// `snapcast_control` (snapserver's JSON-RPC port, Main menu → Speakers): by default port 1705 on the
/// `snapcast` source's host when the snapcast output is configured, else none; given, or `off`.
@Suite struct SnapcastControlConfigTests {
    func load(_ yaml: String, env: [String: String] = [:]) throws -> ServiceConfig {
        let path = "/tmp/cw-snapctl-\(UUID().uuidString.prefix(8)).yaml"
        defer { unlink(path) }
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return try ConfigLoader(environment: ["HOME": "/home/pi"].merging(env) { $1 }).load(file: path)
    }

    @Test func derivedFromTheSnapcastOutputUnlessGivenOrOff() throws {
        #expect(try load("output: pulse\n").snapcastControlAddress == nil)
        let tcp = try #require(
            try load("output: [pulse, snapcast]\nsnapcast: tcp://10.0.0.5:4953\n").snapcastControlAddress)
        #expect(tcp.host == "10.0.0.5" && tcp.port == 1705)
        let pipe = try #require(try load("output: snapcast\nsnapcast: pipe:///tmp/snapfifo\n").snapcastControlAddress)
        #expect(pipe.host == "127.0.0.1" && pipe.port == 1705)
        let given = try #require(try load("output: pulse\nsnapcast_control: snap.local:1805\n").snapcastControlAddress)
        #expect(given.host == "snap.local" && given.port == 1805)
        #expect(try load("output: [pulse, snapcast]\nsnapcast_control: off\n").snapcastControlAddress == nil)
        let env = try #require(
            try load("output: snapcast\n", env: ["CLICKWHEEL_SNAPCAST_CONTROL": "127.0.0.1:14705"])
                .snapcastControlAddress)
        #expect(env.port == 14705)
    }

    @Test func aBadAddressSaysWhatItMustBe() {
        do {
            _ = try load("snapcast_control: snap.local\n")
            Issue.record("an address without a port was accepted")
        } catch {
            #expect("\(error)".contains("'snapcast_control' must be HOST:PORT, e.g. 127.0.0.1:1705"), "\(error)")
        }
    }
}
