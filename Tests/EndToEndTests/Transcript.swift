import ClickWheelTestKit
import Foundation
import Testing

/// A transcript made with `contrib/dev/record-transcript.py`: `## section` headers (each section one
/// connection), `C: request` lines and, after each, its answer as `S: ` lines (the last line only, or
/// with `--full` every line).
struct Transcript {
    struct Request: Sendable {
        /// The request's line number in the file (for failure messages).
        var line: Int
        var text: String
        var expected: [String] = []
    }

    struct Section: Sendable, CustomTestStringConvertible {
        var name: String
        var requests: [Request] = []
        var testDescription: String { name }
    }

    /// The sections of `Tests/EndToEndTests/Transcripts/NAME`, in order. With `commandLists`, `\n` in
    /// a request stands for a line break (a command list sent as one request), as the recorder reads it.
    static func sections(_ name: String, commandLists: Bool = false) -> [Section] {
        let url = TerminalDemoTests.root.appendingPathComponent("Tests/EndToEndTests/Transcripts/" + name)
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        var sections: [Section] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("## ") {
                sections.append(Section(name: String(line.dropFirst(3))))
            } else if line.hasPrefix("C: ") {
                var request = String(line.dropFirst(3))
                if commandLists { request = request.replacingOccurrences(of: "\\n", with: "\n") }
                sections[sections.count - 1].requests.append(Request(line: offset + 1, text: request))
            } else if line.hasPrefix("S: ") {
                let last = sections[sections.count - 1].requests.count - 1
                sections[sections.count - 1].requests[last].expected.append(String(line.dropFirst(3)))
            }
        }
        return sections
    }

    /// Plays `section` to a fresh real service (the test library indexed) on one connection and checks
    /// every answer, whole, against the recorded one (after `normalized`, applied to both).
    static func replay(
        _ section: Section, normalized: ([String]) -> [String] = { $0 },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let service = try ControlSocketServiceTests.Service()
        _ = try service.mpc("update", "--wait")
        let client = try RawClient(service.socket)
        #expect(client.response().hasPrefix("OK MPD "), sourceLocation: sourceLocation)
        for request in section.requests {
            let answer = client.roundTrip(request.text).split(separator: "\n").map(String.init)
            #expect(
                normalized(answer) == normalized(request.expected),
                "line \(request.line): \(request.text)\n\(answer.joined(separator: "\n"))", sourceLocation: sourceLocation)
        }
    }
}
