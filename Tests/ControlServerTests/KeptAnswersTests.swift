import ClickWheelTestKit
import ControlServer
import Foundation
import Testing

/// What the control server keeps in memory between commands (the playlists `lsinfo` lists, `sticker find`'s
/// answers, answered on the event loop once kept) follows every write at once: the next command sees it.
@Suite(.serialized) struct KeptAnswersTests {
    @Test func lsinfoOfTheMusicFolderShowsASavedPlaylistAtOnce() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let name = "Kept \(UUID().uuidString.prefix(6))"
        defer { _ = c.roundTrip("rm \"\(name)\"") }
        let before = c.roundTrip("lsinfo")
        #expect(c.roundTrip("lsinfo") == before)
        #expect(!before.contains("playlist: \(name)\n"))
        _ = c.roundTrip("add \"Durations/01 CBR Info.mp3\"")
        #expect(c.roundTrip("save \"\(name)\"") == "OK\n")
        #expect(c.roundTrip("lsinfo").contains("playlist: \(name)\n"))
        #expect(c.roundTrip("lsinfo \"\"").contains("playlist: \(name)\n"))
        #expect(c.roundTrip("rm \"\(name)\"") == "OK\n")
        // The same listing but for the times: the smart playlists' `Last-Modified` is the library's last
        // change, which the save and the removal just were (equal only when the fixture's database was
        // made in the same second, which a slow run under Thread Sanitizer was not).
        let untimed = { (answer: String) in answer.split(separator: "\n").filter { !$0.hasPrefix("Last-Modified: ") } }
        #expect(untimed(c.roundTrip("lsinfo")) == untimed(before))
    }

    @Test func stickerFindShowsASetStickerAtOnce() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let name = "kept\(UUID().uuidString.prefix(6))"
        defer {
            _ = c.roundTrip("sticker delete song \"Durations/01 CBR Info.mp3\" \(name)")
            _ = c.roundTrip("sticker delete song \"Sorting/10cc - Ten.mp3\" \(name)")
        }
        #expect(c.roundTrip("sticker find song \"\" \(name)") == "OK\n")
        #expect(c.roundTrip("sticker find song \"\" \(name)") == "OK\n")
        #expect(c.roundTrip("sticker set song \"Durations/01 CBR Info.mp3\" \(name) one") == "OK\n")
        let one = "file: Durations/01 CBR Info.mp3\nsticker: \(name)=one\nOK\n"
        #expect(c.roundTrip("sticker find song \"\" \(name)") == one)
        #expect(c.roundTrip("sticker set song \"Sorting/10cc - Ten.mp3\" \(name) two") == "OK\n")
        #expect(c.roundTrip("sticker find song \"\" \(name)") == """
            file: Durations/01 CBR Info.mp3
            sticker: \(name)=one
            file: Sorting/10cc - Ten.mp3
            sticker: \(name)=two
            OK

            """)
        #expect(c.roundTrip("sticker delete song \"Durations/01 CBR Info.mp3\" \(name)") == "OK\n")
        #expect(
            c.roundTrip("sticker find song \"\" \(name)") == "file: Sorting/10cc - Ten.mp3\nsticker: \(name)=two\nOK\n")
    }

    /// `status` has one maker (the command table) and one cache (the kept answer of an unchanged player):
    /// a poll of an unchanged player gets the same bytes on any connection, a change shows at the next
    /// poll, and a `status` framed otherwise (pipelined, in a command list) answers as the poll does.
    @Test func statusPollsAreAnsweredFromTheKeptAnswerUntilThePlayerChanges() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let first = c.roundTrip("status")
        #expect(first.hasSuffix("OK\n") && first.contains("state: stop\n"))
        #expect(c.roundTrip("status") == first)
        let other = try RawClient(f.socket)
        _ = other.response()
        #expect(other.roundTrip("status") == first, "another connection's first poll: the same kept bytes")
        #expect(c.roundTrip("setvol 55") == "OK\n")
        let changed = c.roundTrip("status")
        #expect(changed.contains("volume: 55\n") && changed != first)
        #expect(other.roundTrip("status") == changed)
        let listed = c.roundTrip("command_list_begin\nstatus\ncommand_list_end")
        #expect(listed == changed, "in a command list: the same fields")
        #expect(c.roundTrip("setvol 40") == "OK\n")
        #expect(c.roundTrip("status").contains("volume: 40\n"))
    }
}
