import Foundation
import Playback
import Testing

/// The player on `NullAudioOutput`: runs everywhere (no server), in real time.
@Suite struct NullOutputTests {
    @Test("plays a gapless pair and a 22.05 kHz mono track at real-time pace with ordered reports")
    func playsInOrder() async throws {
        let fixtures = try Fixtures()
        // 2 s tracks, each handed over as the one before is reported started (`handOver`).
        let one = try fixtures.tone("one", frequency: "440", seconds: 2)
        let two = try fixtures.tone("two", frequency: "660", seconds: 2)
        let three = try fixtures.tone("three", frequency: "880", seconds: 2, rate: 22_050, channels: 1)
        let tracks = [one, two, three].enumerated().map { AudioTrack(id: $0.offset + 1, path: $0.element) }
        let (player, log) = ReportLog.player(output: .null, positionInterval: 0.1)
        defer { player.shutdown() }
        let start = Date()
        log.handOver(tracks)
        try await log.wait(timeout: 15, "finished(3)") { $0 == .finished(trackID: 3) }
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed > 5.8, "6 s of audio took \(elapsed) s: the null output must keep real time")
        let order = log.events.filter {
            switch $0 {
            case .started, .finished: true
            default: false
            }
        }
        #expect(order == [1, 2, 3].flatMap { [.started(trackID: $0), .finished(trackID: $0)] })
    }

    @Test("reports handed to a sink (reportsTo) arrive in order, and the stream is finished and empty")
    func sink() async throws {
        let fixtures = try Fixtures()
        let one = try fixtures.tone("one", frequency: "440", seconds: 1)
        let two = try fixtures.tone("two", frequency: "660", seconds: 1)
        let log = ReportLog()
        let player = AudioPlayer(output: .null, positionInterval: 0.1, reportsTo: { log.record($0) })
        defer { player.shutdown() }
        var streamed = 0
        for await _ in player.reports { streamed += 1 }
        #expect(streamed == 0)
        player.play(AudioTrack(id: 1, path: one))
        player.enqueueNext(AudioTrack(id: 2, path: two))
        try await log.wait(timeout: 15, "finished(2)") { $0 == .finished(trackID: 2) }
        let order = log.events.filter {
            switch $0 {
            case .started, .finished: true
            default: false
            }
        }
        #expect(order == [.started(trackID: 1), .finished(trackID: 1), .started(trackID: 2), .finished(trackID: 2)])
        for track in [1, 2] {
            let seconds = log.timedPositions(track).map(\.seconds)
            #expect(!seconds.isEmpty && seconds == seconds.sorted(), "positions of \(track): \(seconds)")
        }
    }

    @Test("pause freezes the position, seek moves it, stop reports stopped")
    func commands() async throws {
        let fixtures = try Fixtures()
        // Long enough that a test task held for seconds by a loaded machine still pauses it mid-track.
        let path = try fixtures.tone("long", frequency: "440", seconds: 30)
        let (player, log) = ReportLog.player(output: .null, positionInterval: 0.05)
        defer { player.shutdown() }
        player.play(AudioTrack(id: 1, path: path), at: 1)
        try await log.waitForPosition(1, atLeast: 1.2)
        player.pause()
        try await log.wait(timeout: 5, "paused") { $0 == .paused(.command) }
        let mark = log.count
        try await Task.sleep(for: .milliseconds(300))
        #expect(!log.all.dropFirst(mark).contains { if case .position = $0 { true } else { false } })
        player.seek(to: 3)
        player.resume()
        try await log.wait(after: mark, timeout: 5, "position ≥ 3") {
            if case .position(1, let s) = $0 { return s >= 3 && s < 3.5 }
            return false
        }
        player.stop()
        try await log.wait(timeout: 5, "stopped") { $0 == .stopped }
    }
}
