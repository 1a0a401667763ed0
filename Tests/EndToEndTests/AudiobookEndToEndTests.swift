import ClickWheelTestKit
import Foundation
import Testing

/// Audiobooks and chapters through the whole service: the real `clickwheel run` (null audio output,
/// which keeps real-time pace) indexes a spoken-word MP3 with CHAP frames (espeak-ng, lame, mutagen),
/// the wheel and buttons come over the control socket (`clickwheel ctl`), the screen is read back.
@Suite(.serialized) struct AudiobookEndToEndTests {
    static func ctl(_ socket: String, _ arguments: String...) throws -> String {
        try ChildProcess.run(TerminalDemoTests.binary, ["ctl", "--socket", socket] + arguments).stdout
    }

    @Test func theWheelWalksToABookAndNextMovesToTheNextChapter() throws {
        let tmp = URL(fileURLWithPath: "/tmp").appendingPathComponent("cw-books-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let made = try SpokenWordFixture.make(
            at: tmp.appendingPathComponent("music/Audiobooks/Wheel Book/01 Part One.mp3"), title: "Part One",
            album: "Wheel Book")
        let socket = tmp.path + "/socket"
        let service = try ChildProcess(TerminalDemoTests.binary, [
            "run", "--display", "none", "--lcd", "20x4", "--input", "none", "--output", "null",
            "--music", tmp.path + "/music", "--db", tmp.path + "/lib.sqlite", "--socket", socket,
        ])
        defer { service.kill(SIGKILL); _ = service.wait() }

        // Music shows Audiobooks once the scan has found the book.
        var screen = ""
        let found = try FullServiceTests.poll(seconds: 30) {
            // Each try from the main menu's first row (Music): a press lost to the backlight's wake-up on
            // a slow machine would otherwise leave the cursor elsewhere for every later try.
            _ = try Self.ctl(socket, "press", "menu")
            _ = try Self.ctl(socket, "press", "menu")
            _ = try Self.ctl(socket, "wheel", "-20")
            _ = try Self.ctl(socket, "press", "select")
            _ = try Self.ctl(socket, "wheel", "6")
            screen = try Self.ctl(socket, "screen")
            return screen.contains(">Audiobooks")
        }
        try #require(found, "Music never listed Audiobooks: \(screen)")
        _ = try Self.ctl(socket, "press", "select")
        #expect(try Self.ctl(socket, "screen").contains("Wheel Book"))
        _ = try Self.ctl(socket, "press", "select")
        _ = try Self.ctl(socket, "press", "select")
        // Now Playing: the part's title, then the chapter playing.
        #expect(try FullServiceTests.poll(seconds: 10) { try Self.ctl(socket, "screen").contains("Opening") })
        _ = try Self.ctl(socket, "press", "next")
        #expect(try FullServiceTests.poll(seconds: 5) { try Self.ctl(socket, "screen").contains("The Wheel") })
        let elapsed = Double(try FullServiceTests.status(socket)["elapsed"] ?? "0") ?? 0
        let second = Double(made.chapters[1].startMS) / 1000
        #expect(elapsed >= second && elapsed < second + 1.5, "elapsed \(elapsed), chapter 2 at \(second)")
        #expect(try FullServiceTests.status(socket)["song"] == "0", "still the same file")
        service.kill(SIGTERM)
        #expect(service.wait().status == 0)
    }
}
