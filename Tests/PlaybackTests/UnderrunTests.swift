import ClickWheelTestKit
import Foundation
import Playback
import Synchronization
import Testing

/// What the player does with the server's underruns: counts those heard while a track plays, and logs a
/// burst of them as one line. The output is the null output with underflow events put in front of it
/// (`RealServerTests.underrunIsHeardCountedAndLogged` makes a real one on a real server).
@Suite struct UnderrunTests {
    /// Underflow events for the output to hand over at its next `takeEvents`.
    final class Pending: Sendable {
        let underflows = Mutex(0)
    }

    final class UnderflowingOutput: ForwardingOutput {
        let pending: Pending

        init(_ pending: Pending) {
            self.pending = pending
            super.init(NullAudioOutput())
        }

        override func takeEvents() -> [AudioOutputEvent] {
            let n = pending.underflows.withLock { n in
                defer { n = 0 }
                return n
            }
            return inner.takeEvents() + Array(repeating: .underflow, count: n)
        }
    }

    /// Waits up to 5 s for `condition`.
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test("underruns while playing are counted and a burst is logged once; none are counted while paused")
    func underrunsAreCountedAndLoggedOnce() async throws {
        let fixtures = try Fixtures()
        // Long enough that the track still plays (underruns count only then) however late this task runs
        // on a loaded machine: a 4 s tone left 3.7 s between the first report and its end.
        let path = try fixtures.tone("tone", frequency: "440", seconds: 30)
        let pending = Pending()
        let capture = LogCapture()
        let player = AudioPlayer(
            output: .custom { UnderflowingOutput(pending) }, positionInterval: 0.1, logger: capture.logger)
        defer { player.shutdown() }
        let log = ReportLog(player)
        player.play(AudioTrack(id: 3, path: path))
        try await log.waitForPosition(3, atLeast: 0.3)

        pending.underflows.withLock { $0 = 5 }
        #expect(try await eventually { player.underruns == 5 }, "counted \(player.underruns)")
        let lines = capture.lines.filter { $0.contains("underrun") }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("warning: an audio underrun in track 3: the sound server ran out of audio") == true, "\(lines)")

        player.pause()
        try await log.wait(timeout: 5, "paused") { $0 == .paused(.command) }
        pending.underflows.withLock { $0 = 3 }
        player.setVolume(50)  // wakes the audio thread, which takes the events
        #expect(try await eventually { pending.underflows.withLock { $0 } == 0 }, "the events were taken")
        #expect(player.underruns == 5, "counted while paused: \(player.underruns)")
    }
}
