import ClickWheelCore
import ClickWheelTestKit
import Foundation
import Testing

/// `crossfade`, `mixrampdb` and `mixrampdelay` answer as MPD 0.23 does (the answers below are a real MPD
/// 0.23's, written into the test): `xfade:` in `status` only
/// while the crossfade is above 0, `mixrampdb:` always, `mixrampdelay:` only while above 0; each change
/// announces `options`; the crossfade reaches the player.
@Suite(.serialized) struct CrossfadeCommandTests {
    @Test func crossfadeAndMixRampAnswerAsMPD() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let idler = try RawClient(f.socket)
        _ = idler.response()
        #expect(c.roundTrip("status").hasSuffix("playlistlength: 0\nmixrampdb: 0\nstate: stop\nOK\n"))

        idler.send("idle options\n")
        #expect(c.roundTrip("crossfade 3") == "OK\n")
        #expect(idler.response() == "changed: options\nOK\n")
        #expect(c.roundTrip("mixrampdb -17") == "OK\n")
        #expect(c.roundTrip("mixrampdelay 2") == "OK\n")
        #expect(c.roundTrip("status").hasSuffix("playlistlength: 0\nmixrampdb: -17\nstate: stop\nxfade: 3\nmixrampdelay: 2\nOK\n"))
        #expect(f.playback.commands.contains(.crossfade(seconds: 3)))
        #expect(f.loop.snapshot().crossfadeSeconds == 3)

        #expect(c.roundTrip("crossfade -1") == "ACK [2@0] {crossfade} Number too large: -1\n")
        #expect(c.roundTrip("crossfade 1.5") == "ACK [2@0] {crossfade} Integer expected: 1.5\n")
        #expect(c.roundTrip("crossfade x") == "ACK [2@0] {crossfade} Integer expected: x\n")
        #expect(c.roundTrip("crossfade") == "ACK [2@0] {crossfade} wrong number of arguments for \"crossfade\"\n")
        #expect(c.roundTrip("mixrampdb x") == "ACK [2@0] {mixrampdb} Float expected: x\n")
        // `mixrampdelay nan` is accepted and switches MixRamp off: the line goes.
        #expect(c.roundTrip("mixrampdelay nan") == "OK\n")
        #expect(c.roundTrip("mixrampdb 1.5") == "OK\n")
        #expect(c.roundTrip("status").hasSuffix("playlistlength: 0\nmixrampdb: 1.5\nstate: stop\nxfade: 3\nOK\n"))
        // A float kept as a double, as MPD prints it.
        #expect(c.roundTrip("mixrampdelay 0.1") == "OK\n")
        #expect(c.roundTrip("status").contains("xfade: 3\nmixrampdelay: 0.10000000149011612\n"))

        #expect(c.roundTrip("crossfade 0") == "OK\n")
        #expect(c.roundTrip("mixrampdb 0") == "OK\n")
        #expect(c.roundTrip("mixrampdelay 0") == "OK\n")
        #expect(c.roundTrip("status").hasSuffix("playlistlength: 0\nmixrampdb: 0\nstate: stop\nOK\n"))
        #expect(f.playback.commands.last(where: { if case .crossfade = $0 { true } else { false } }) == .crossfade(seconds: 0))
        let commands = c.roundTrip("commands")
        #expect(commands.contains("command: crossfade\n"))
        #expect(commands.contains("command: mixrampdb\ncommand: mixrampdelay\ncommand: move\n"))
    }

    @Test func aStoredCrossfadeReachesThePlayerAtStart() throws {
        var stored = Settings()
        stored.crossfadeSeconds = 4
        stored.mixRampDB = -17
        let (loop, playback) = ServerFixture.makeLoop(stored: stored)
        #expect(playback.commands.contains(.crossfade(seconds: 4)))
        #expect(loop.snapshot().crossfadeSeconds == 4 && loop.snapshot().mixRampDB == -17)
    }
}
