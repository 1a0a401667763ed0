import MPDProtocol
import Testing

/// Replays the fixtures in `Transcripts/` (copied from MPD 0.23.12's recorded transcripts) against
/// the codec with the stub command table, whole and one byte at a time.
@Suite struct TranscriptReplayTests {
    enum Feeding: String, CaseIterable, CustomTestStringConvertible {
        /// Every run of client lines between engine events arrives in one read.
        case whole
        /// Every byte arrives in its own read.
        case dripFed

        var testDescription: String { rawValue }
    }

    static let fixtures = [
        "framing.txt", "quoting.txt", "arguments.txt", "command-lists.txt", "idle.txt", "filters.txt",
    ]

    @Test(arguments: fixtures, Feeding.allCases)
    func replay(fixture: String, feeding: Feeding) throws {
        let transcript = try Transcript.load(fixture)
        #expect(!transcript.connections.isEmpty)
        for connection in transcript.connections {
            var driver = SessionDriver()
            #expect(escaped(driver.output) == escaped(connection.greeting), "greeting, line \(connection.line)")
            switch feeding {
            case .whole: replayWhole(connection, &driver)
            case .dripFed: replayDripFed(connection, &driver)
            }
        }
    }

    private func replayWhole(_ connection: Transcript.Connection, _ driver: inout SessionDriver) {
        var chunk: [UInt8] = []
        for (index, step) in connection.steps.enumerated() {
            switch step.input {
            case .bytes(let bytes): chunk += bytes
            case .event(let subsystems): driver.notify(subsystems)
            }
            if index + 1 < connection.steps.count, case .bytes = step.input,
                case .bytes = connection.steps[index + 1].input
            {
                continue
            }
            if !chunk.isEmpty {
                driver.receive(chunk)
                chunk = []
            }
            check(driver, step, connection)
        }
        checkEnd(driver, connection)
    }

    private func replayDripFed(_ connection: Transcript.Connection, _ driver: inout SessionDriver) {
        for step in connection.steps {
            switch step.input {
            case .bytes(let bytes):
                for byte in bytes { driver.receive([byte]) }
            case .event(let subsystems):
                driver.notify(subsystems)
            }
            check(driver, step, connection)
        }
        checkEnd(driver, connection)
    }

    /// After a step the server must have sent at least what the transcript shows up to there, and
    /// nothing the transcript does not show later (pipelined requests are answered early).
    private func check(_ driver: SessionDriver, _ step: Transcript.Step, _ connection: Transcript.Connection) {
        let final = connection.steps.last?.expectedOutput ?? connection.greeting
        #expect(
            driver.output.starts(with: step.expectedOutput) && final.starts(with: driver.output),
            "after fixture line \(step.line):\n\(escaped(driver.output))\nexpected:\n\(escaped(step.expectedOutput))")
        if step.expectsClosed {
            #expect(driver.closed, "closed after fixture line \(step.line)")
        }
    }

    private func checkEnd(_ driver: SessionDriver, _ connection: Transcript.Connection) {
        let final = connection.steps.last?.expectedOutput ?? connection.greeting
        #expect(escaped(driver.output) == escaped(final), "connection at fixture line \(connection.line)")
        #expect(driver.closed == (connection.steps.last?.expectsClosed ?? false), "connection \(connection.line)")
    }
}
