import ClickWheelTestKit
import Foundation
import Testing

/// The `sticker` idle event: a client waiting hears another's change; a rating change also tells
/// stored-playlist watchers (My Top Rated moved) and redraws the menus.
@Suite struct StickerIdleTests {
    static let song = "Durations/04 CBR no Info.mp3"

    @Test func aStickerChangeWakesIdleClients() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let idle = try RawClient(f.socket)
        _ = idle.response()
        idle.send("idle sticker\n")
        let name = "note-\(UUID().uuidString.prefix(6))"
        #expect(c.roundTrip("sticker set song \"\(Self.song)\" \(name) hello") == "OK\n")
        #expect(idle.response() == "changed: sticker\nOK\n")
        idle.send("idle sticker stored_playlist\n")
        #expect(c.roundTrip("sticker delete song \"\(Self.song)\" \(name)") == "OK\n")
        #expect(idle.response() == "changed: sticker\nOK\n")
        // A refused change wakes nobody.
        idle.send("idle sticker\n")
        #expect(c.roundTrip("sticker set song \"\(Self.song)\" playCount 3").hasPrefix("ACK [2@0] {sticker} "))
        #expect(c.roundTrip("sticker set song \"\(Self.song)\" rating 9") == "OK\n")
        #expect(idle.response() == "changed: sticker\nOK\n")
        idle.send("idle stored_playlist\n")
        #expect(c.roundTrip("sticker delete song \"\(Self.song)\" rating") == "OK\n")
        #expect(idle.response() == "changed: stored_playlist\nOK\n")
        #expect(c.roundTrip("commands").contains("command: sticker\n"))
    }
}
