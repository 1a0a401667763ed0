import Foundation
import Playback
import Synchronization
import Testing

/// A server that takes the connection but fails the first stream on it: a pulse server shutting down
/// does that (pipewire-pulse, during a restart, answered `pa_stream_connect_playback` with an I/O
/// error). The player connects again instead of pausing, once; a server that keeps failing its streams
/// gets the pause. The output is the null output with the failures put in front of it: the restart
/// race itself could not be made to happen on purpose against the real server.
@Suite struct FirstStreamTests {
    /// What the audio thread's output did, for the test to read.
    final class Counts: Sendable {
        let state = Mutex((connects: 0, failedOpens: 0))
    }

    /// The null output, with `openStream` failing (not as a lost server) `failures` times.
    final class FailingFirstStreams: ForwardingOutput {
        let counts: Counts
        let failures: Int

        init(failures: Int, counts: Counts) {
            self.failures = failures
            self.counts = counts
            super.init(NullAudioOutput())
        }

        override func connect(wake: @escaping @Sendable () -> Void) throws(AudioOutputError) -> String {
            counts.state.withLock { $0.connects += 1 }
            return try inner.connect(wake: wake)
        }

        override func openStream(format: PCMFormat, volume: Int, paused: Bool) throws(AudioOutputError) {
            let fail = counts.state.withLock { s in
                guard s.failedOpens < failures else { return false }
                s.failedOpens += 1
                return true
            }
            if fail { throw AudioOutputError("pa_stream_connect_playback: Input/Output error", serverGone: false) }
            try inner.openStream(format: format, volume: volume, paused: paused)
        }
    }

    @Test("a failed first stream on a connection connects again and plays, not paused")
    func aServerNotReadyIsRetried() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.tone("tone", frequency: "440", seconds: 2)
        let counts = Counts()
        let player = AudioPlayer(output: .custom { FailingFirstStreams(failures: 1, counts: counts) }, positionInterval: 0.1)
        defer { player.shutdown() }
        let log = ReportLog(player)
        player.play(AudioTrack(id: 1, path: path))
        try await log.waitForPosition(1, atLeast: 0.3)
        #expect(counts.state.withLock { $0 } == (connects: 2, failedOpens: 1))
        #expect(!log.events.contains(.paused(.outputRemoved)), "\(log.events)")
        #expect(log.events.filter { $0 == .started(trackID: 1) }.count == 1, "\(log.events)")
    }

    @Test("a server that fails every stream gets one more connection, then the pause")
    func aServerThatKeepsFailingStreamsPauses() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.tone("tone", frequency: "440", seconds: 2)
        let counts = Counts()
        let player = AudioPlayer(output: .custom { FailingFirstStreams(failures: .max, counts: counts) }, positionInterval: 0.1)
        defer { player.shutdown() }
        let log = ReportLog(player)
        player.play(AudioTrack(id: 1, path: path))
        try await log.wait(timeout: 10, "paused") { $0 == .paused(.outputRemoved) }
        try await Task.sleep(for: .milliseconds(600))
        #expect(counts.state.withLock { $0 }.connects == 2)
    }
}
