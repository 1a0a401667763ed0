import Foundation
import NamedThreads
import Playback

/// Collects an `AudioPlayer`'s reports as they arrive, so a test can wait for one.
final class ReportLog: Sendable {
    /// The reports, `Locked` rather than behind a `Mutex`: the collector and the waiters contend for them,
    /// and the Thread Sanitizer sees only a pthread mutex's hand-off (see `Locked`).
    private let entries = Locked<[(time: Date, report: PlayerReport)]>([])

    init(_ player: AudioPlayer) {
        let reports = player.reports
        Task.detached { [self] in
            for await event in reports { self.record(event) }
        }
    }

    /// A log fed by `record`: an `AudioPlayer(reportsTo:)`'s sink.
    init() {}

    /// A player whose reports this log records as the audio thread makes them (its `reportsTo` sink), so
    /// that `handOver` follows them at once; `AudioPlayer.reports` is then empty.
    static func player(output: AudioPlayer.Output, positionInterval: Double) -> (AudioPlayer, ReportLog) {
        let log = ReportLog()
        let player = AudioPlayer(output: output, positionInterval: positionInterval, reportsTo: { log.record($0) })
        log.player.withLock { $0.value = player }
        return (player, log)
    }

    /// The player of `ReportLog.player` (weak: the player holds this log in its sink), and the tracks
    /// still to hand to it.
    private struct WeakPlayer { weak var value: AudioPlayer? }
    private let player = Locked(WeakPlayer())
    private let pending = Locked<[AudioTrack]>([])

    /// Plays `tracks` in order the way the engine does: `play` the first, `enqueueNext` each following
    /// one as the one before is reported started. The hand-over is made in `record`, as the report is
    /// made (a post to the player's mailbox, which any thread may make), not by a test's task: a task
    /// waits on Swift's cooperative pool, which a loaded machine running the suite in parallel held for
    /// longer than a 2 s track (the track ended before the next was handed over, and the test failed).
    /// Needs a log made by `ReportLog.player`.
    func handOver(_ tracks: [AudioTrack]) {
        guard let player = player.withLock({ $0.value }), let first = tracks.first else {
            preconditionFailure("handOver needs a log made by ReportLog.player and at least one track")
        }
        pending.withLock { $0 = Array(tracks.dropFirst()) }
        player.play(first)
    }

    func record(_ event: PlayerEvent) {
        entries.withLock { $0.append((Date(), event.report)) }
        if case .started = event.report, let next = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            player.withLock { $0.value }?.enqueueNext(next)
        }
    }

    var all: [PlayerReport] { entries.withLock { $0.map(\.report) } }

    /// Reports other than positions, in order.
    var events: [PlayerReport] {
        all.filter {
            if case .position = $0 { return false }
            return true
        }
    }

    /// Waits until a report matching `match` arrived after the first `after` reports; returns it with its
    /// arrival time. Throws after `timeout` seconds (generous: the machine may be loaded). The log is
    /// looked at once more after the deadline, a moment later: a waiter and the collecting task both run
    /// on Swift's cooperative pool, and when other tests hold every pool thread (a slow build, the Thread
    /// Sanitizer) the waiter may wake past its deadline before the collector has caught up with reports
    /// that came in time.
    @discardableResult
    func wait(
        after: Int = 0, timeout: Double = 15, _ what: String = "report",
        _ match: @escaping @Sendable (PlayerReport) -> Bool
    ) async throws -> (time: Date, report: PlayerReport) {
        let deadline = Date(timeIntervalSinceNow: timeout * Self.timeoutScale)
        let find = { self.entries.withLock { list in list.dropFirst(after).first { match($0.report) } } }
        while Date() < deadline {
            if let found = find() { return found }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(200))
        if let found = find() { return found }
        throw Shell.Failure(description: "no \(what) within \(timeout) s; got \(all)")
    }

    /// `CW_TEST_TIMEOUT_SCALE` (default 1) stretches every wait: an instrumented build runs several times
    /// slower (`contrib/ci/tsan.sh` sets 4), and the null output still plays in real time.
    static let timeoutScale = max(1, Double(ProcessInfo.processInfo.environment["CW_TEST_TIMEOUT_SCALE"] ?? "") ?? 1)

    var count: Int { entries.withLock { $0.count } }

    /// The position reports of `track` so far, with their arrival times.
    func timedPositions(_ track: Int) -> [(time: Date, seconds: Double)] {
        entries.withLock { list in
            list.compactMap { e in
                if case .position(track, let s) = e.report { return (e.time, s) }
                return nil
            }
        }
    }

    /// Waits for a position report of `track` at or past `seconds`.
    func waitForPosition(_ track: Int, atLeast seconds: Double, timeout: Double = 15) async throws {
        try await wait(timeout: timeout, "position ≥ \(seconds) s of \(track)") {
            if case .position(track, let s) = $0 { return s >= seconds }
            return false
        }
    }
}
