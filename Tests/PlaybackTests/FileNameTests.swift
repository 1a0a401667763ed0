import Foundation
import Playback
import Testing

/// Linux file names are bytes: a name that is not valid UTF-8 (copied from an old FAT stick, a
/// Latin-1 tagger) must play like any other. Runs on the null output, no server needed.
@Suite struct FileNameTests {
    @Test("a file whose name is not valid UTF-8 plays from its exact bytes")
    func playsNonUTF8Name() async throws {
        let fixtures = try Fixtures()
        let made = try fixtures.tone("plain", frequency: "440", seconds: 1)
        let folder = Array(URL(fileURLWithPath: made).deletingLastPathComponent().path.utf8)
        let bytes = folder + Array("/caf".utf8) + [0xE9] + Array(" \u{2014} ".utf8) + [0xFF] + Array(".mp3".utf8)
        let renamed = (Array(made.utf8) + [0]).withUnsafeBufferPointer { from in
            (bytes + [0]).withUnsafeBufferPointer { to in
                from.withMemoryRebound(to: CChar.self) { f in
                    to.withMemoryRebound(to: CChar.self) { t in rename(f.baseAddress!, t.baseAddress!) }
                }
            }
        }
        try #require(renamed == 0)
        let track = AudioTrack(id: 1, pathBytes: bytes)
        #expect(track.path.contains("\u{FFFD}"))  // the text form could not name the file
        let player = AudioPlayer(output: .null, positionInterval: 0.1)
        defer { player.shutdown() }
        let log = ReportLog(player)
        player.play(track)
        try await log.wait(timeout: 15, "started(1)") { $0 == .started(trackID: 1) }
        try await log.wait(timeout: 15, "finished(1)") { $0 == .finished(trackID: 1) }
        #expect(!log.events.contains { if case .failed = $0 { true } else { false } })
    }
}
