import ClickWheelTestKit
import Foundation
import Testing

/// The `sticker` command of the real `clickwheel run`, line by line against a real MPD 0.23.12 with a
/// sticker database (`Transcripts/stickers.txt`, recorded with `contrib/dev/record-transcript.py
/// --full`: every line of every answer), then the device's own names (playCount, rating, …) and
/// the read-only smart playlists in a last section of ClickWheel's own answers.
@Suite(.serialized) struct StickerTranscriptTests {
    static let sections = Transcript.sections("stickers.txt")

    @Test func theFixtureCoversEveryVerb() {
        #expect(Self.sections.count == 5)
        let all = Self.sections.flatMap(\.requests)
        #expect(all.allSatisfy { $0.expected.last == "OK" || $0.expected.last?.hasPrefix("ACK ") == true })
        for verb in ["get", "set", "list", "find", "delete"] {
            #expect(all.contains { $0.text.hasPrefix("sticker \(verb) song ") }, "\(verb)")
        }
    }

    /// Each section on a fresh service (its own database), as each was recorded on a fresh MPD.
    @Test(arguments: sections) func answersAsRecorded(_ section: Transcript.Section) throws {
        try Transcript.replay(section)
    }
}
