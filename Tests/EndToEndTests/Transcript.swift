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
}
