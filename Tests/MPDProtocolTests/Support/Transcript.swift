import Foundation
import MPDProtocol

/// A recorded conversation with one connection, in the reference transcripts' notation.
///
/// Fixture syntax (a subset of `mpd-transcripts.txt`):
/// - `S: OK MPD 0.23.5   # greeting` starts a new connection;
/// - `C: text` one request line (a `\n` is added), `C~: text` bytes without a `\n`;
/// - `E: name…` the engine reports these idle subsystems changed (another client's action);
/// - `S: text` one response line; `S: ⟨connection closed by server⟩` the server closes here;
///   other `S: ⟨…⟩` observations and `#` comments are ignored.
/// In `text`, `\xNN` is one byte; every other character stands for its UTF-8 bytes.
struct Transcript {
    enum Input: Equatable {
        case bytes([UInt8])
        case event(MPDIdleSubsystems)
    }

    /// One input and what the server must have sent in total (and whether it closed) after it.
    struct Step {
        var input: Input
        var expectedOutput: [UInt8]
        var expectsClosed: Bool
        var line: Int
    }

    struct Connection {
        var line: Int
        var greeting: [UInt8]
        var steps: [Step] = []
    }

    var connections: [Connection] = []

    /// A fixture line the parser does not understand.
    struct MalformedFixture: Error, CustomStringConvertible {
        var line: Int
        var text: String
        var description: String { "fixture line \(line): \(text)" }
    }

    init(_ text: String) throws {
        var expected: [UInt8] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine)
            let number = offset + 1
            if line.hasPrefix("S: OK MPD ") {
                let text = line.dropFirst(3).components(separatedBy: "   #")[0]
                expected = Transcript.decode(text) + [10]
                connections.append(Connection(line: number, greeting: expected))
            } else if line.hasPrefix("C: ") {
                appendStep(.bytes(Transcript.decode(String(line.dropFirst(3))) + [10]), expected, number)
            } else if line.hasPrefix("C~: ") {
                appendStep(.bytes(Transcript.decode(String(line.dropFirst(4)))), expected, number)
            } else if line.hasPrefix("E: ") {
                let names = line.dropFirst(3).split(separator: " ").map { MPDArgument(String($0)) }
                appendStep(.event((try? MPDIdleSubsystems.parse(names)) ?? []), expected, number)
            } else if line == "S: ⟨connection closed by server⟩" {
                connections[connections.count - 1].steps[connections[connections.count - 1].steps.count - 1]
                    .expectsClosed = true
            } else if line.hasPrefix("S: ⟨") {
                continue
            } else if line.hasPrefix("S: ") {
                expected += Transcript.decode(String(line.dropFirst(3))) + [10]
                let last = connections.count - 1
                if connections[last].steps.isEmpty {
                    connections[last].greeting = expected
                } else {
                    connections[last].steps[connections[last].steps.count - 1].expectedOutput = expected
                }
            } else if !line.isEmpty && !line.hasPrefix("#") {
                throw MalformedFixture(line: number, text: line)
            }
        }
    }

    private mutating func appendStep(_ input: Input, _ expected: [UInt8], _ line: Int) {
        precondition(!connections.isEmpty, "fixture line \(line): input before the greeting")
        connections[connections.count - 1].steps.append(
            Step(
                input: input, expectedOutput: expected,
                expectsClosed: connections.last?.steps.last?.expectsClosed ?? false, line: line))
    }

    /// Decodes the transcript notation: `\xNN` is a byte, anything else its UTF-8.
    static func decode(_ text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count, utf8[index + 1] == UInt8(ascii: "x"),
                let byte = UInt8(String(decoding: utf8[index + 2...index + 3], as: UTF8.self), radix: 16)
            {
                bytes.append(byte)
                index += 4
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return bytes
    }

    /// Loads a fixture from `Tests/MPDProtocolTests/Transcripts/` (next to this test target).
    static func load(_ name: String) throws -> Transcript {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let url = directory.appendingPathComponent("Transcripts").appendingPathComponent(name)
        return try Transcript(try String(contentsOf: url, encoding: .utf8))
    }
}

/// Renders bytes the way the transcripts do, for readable test failures.
func escaped(_ bytes: [UInt8]) -> String {
    var text = ""
    for byte in bytes {
        switch byte {
        case 10: text += "\\n\n"
        case 0x20..<0x7F: text.unicodeScalars.append(UnicodeScalar(byte))
        default: text += "\\x" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
        }
    }
    return text
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
