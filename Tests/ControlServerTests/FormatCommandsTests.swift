import ClickWheelTestKit
import Foundation
import Testing

/// The MPD commands the new formats bring: `decoders` lists every plugin, and `replay_gain_mode` and
/// `replay_gain_status` drive Sound Check as MPD 0.23's do (the answers below are a real MPD 0.23.12's,
/// written into the test), with `idle options` when the mode changes.
@Suite(.serialized) struct FormatCommandsTests {
    @Test func decodersListsEveryPluginWithItsSuffixesAndMIMETypes() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let answer = c.roundTrip("decoders")
        let plugins = answer.split(separator: "\n").filter { $0.hasPrefix("plugin: ") }.map { String($0.dropFirst(8)) }
        #expect(plugins == ["mpg123", "flac", "vorbis", "opus", "ffmpeg", "pcm"])
        for suffix in ["mp3", "flac", "ogg", "opus", "m4a", "m4b", "wav", "aiff"] {
            #expect(answer.contains("suffix: \(suffix)\n"), "\(suffix)")
        }
        #expect(answer.contains("mime_type: audio/flac\n") && answer.hasSuffix("OK\n"))
    }

    @Test func replayGainModeAnswersAsMPDAndReachesTheSettings() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let idler = try RawClient(f.socket)
        _ = idler.response()
        #expect(c.roundTrip("replay_gain_status") == "replay_gain_mode: off\nOK\n")
        idler.send("idle options\n")
        #expect(c.roundTrip("replay_gain_mode auto") == "OK\n")
        #expect(idler.response() == "changed: options\nOK\n")
        #expect(c.roundTrip("replay_gain_status") == "replay_gain_mode: auto\nOK\n")
        #expect(c.roundTrip("replay_gain_mode bogus") == "ACK [2@0] {replay_gain_mode} Unrecognized replay gain mode\n")
        #expect(c.roundTrip("replay_gain_mode") == "ACK [2@0] {replay_gain_mode} wrong number of arguments for \"replay_gain_mode\"\n")
        #expect(c.roundTrip("replay_gain_mode album") == "OK\n")
        #expect(f.loop.snapshot().replayGainMode == "album")
        #expect(c.roundTrip("replay_gain_mode off") == "OK\n")
        #expect(c.roundTrip("replay_gain_status") == "replay_gain_mode: off\nOK\n")
        #expect(c.roundTrip("commands").contains("command: replay_gain_mode\n"))
    }
}
