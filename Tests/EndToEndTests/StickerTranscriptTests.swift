import ClickWheelTestKit
import Foundation
import Testing

/// The `sticker` command of the real `clickwheel run`, line by line against a real MPD 0.23.12 with a
/// sticker database (`Transcripts/stickers.txt`, recorded with `contrib/dev/record-transcript.py
/// --full`: every line of every answer), then the device's own names (playCount, rating, …) and
/// the read-only smart playlists in a last section of ClickWheel's own answers.
@Suite(.serialized) struct StickerTranscriptTests {
    struct Request: Sendable {
        var line: Int
        var text: String
        var expected: [String] = []
    }

    struct Section: Sendable, CustomTestStringConvertible {
        var name: String
        var requests: [Request] = []
        var testDescription: String { name }
    }

    static let sections: [Section] = {
        let url = TerminalDemoTests.root.appendingPathComponent("Tests/EndToEndTests/Transcripts/stickers.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        var sections: [Section] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("## ") {
                sections.append(Section(name: String(line.dropFirst(3))))
            } else if line.hasPrefix("C: ") {
                sections[sections.count - 1].requests.append(Request(line: offset + 1, text: String(line.dropFirst(3))))
            } else if line.hasPrefix("S: ") {
                let last = sections[sections.count - 1].requests.count - 1
                sections[sections.count - 1].requests[last].expected.append(String(line.dropFirst(3)))
            }
        }
        return sections
    }()

    @Test func theFixtureCoversEveryVerb() {
        #expect(Self.sections.count == 5)
        let all = Self.sections.flatMap(\.requests)
        #expect(all.allSatisfy { $0.expected.last == "OK" || $0.expected.last?.hasPrefix("ACK ") == true })
        for verb in ["get", "set", "list", "find", "delete"] {
            #expect(all.contains { $0.text.hasPrefix("sticker \(verb) song ") }, "\(verb)")
        }
    }

    /// Each section on a fresh service (its own database), as each was recorded on a fresh MPD.
    @Test(arguments: sections) func answersAsRecorded(_ section: Section) throws {
        let service = try ControlSocketServiceTests.Service()
        _ = try service.mpc("update", "--wait")
        let client = try RawClient(service.socket)
        #expect(client.response().hasPrefix("OK MPD "))
        for request in section.requests {
            let answer = client.roundTrip(request.text).split(separator: "\n").map(String.init)
            #expect(answer == request.expected, "line \(request.line): \(request.text)")
        }
    }
}
