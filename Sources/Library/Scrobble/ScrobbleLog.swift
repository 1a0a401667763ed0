public import ClickWheelCore
import Dispatch
import Foundation
public import Logging

/// The scrobble log (`scrobble_log: PATH`): every listen the engine reports (`Effect.played`: `L`,
/// `Effect.skipped`: `S`) is queued in the library database, then appended to the log file
/// (`Scrobble`'s format) once the wall clock is known to be right.
///
/// Start time: a listen began at *the moment it counted minus its position then* (`record`'s
/// `positionMS`): for `L`, the position where it passed the play-count mark (or its length, when it
/// played to its end); for `S`, the last position seen. A pause or a seek before that moment moves the
/// start accordingly: the start is when a play-through from 0 at normal speed would have begun.
///
/// Clock rule: a listen made while the clock is synchronised gets its start time at once. One made
/// before keeps the boot clock's reading (CLOCK_BOOTTIME) and this boot's id; when the clock is known
/// right, its start is worked back from the boot clock, or, when it was made in another boot, it is
/// dropped with one log line (its start cannot be known). While listens wait, the clock is asked
/// again every `pollSeconds`.
///
/// Crash rule: each append is noted in the database first (`log_offset`: the file's size before it),
/// then written and fsynced, then its listens deleted. After a crash between those steps, the next
/// flush compares the file from that offset with the lines: all there → the listens are deleted (no
/// duplicate); a torn tail → the file is cut back to the offset and the lines appended again; the file
/// shorter than the offset (someone emptied or replaced it) → the lines are appended again (a possible
/// duplicate: better than a lost listen). ClickWheel is the file's only writer; tools may read it, and
/// delete or empty it after uploading.
///
/// Thread rules: `record` runs on the caller's thread (the engine's queue: a small database write, as
/// for play counts); the file work runs on the log's own serial queue, never the engine's.
/// `@unchecked Sendable`: `pollScheduled`, `stopped` and `lastProblem` are touched only on `queue`.
public final class ScrobbleLog: @unchecked Sendable {
    public let path: String
    private let pending: ScrobbleQueue
    private let clock: ScrobbleClock
    private let header: String
    private let pollSeconds: Double
    private let logger: Logger
    private let queue = DispatchQueue(label: "clickwheel.scrobble")
    private var pollScheduled = false
    private var stopped = false
    /// The last failure logged, so a failure that repeats at every poll is logged once.
    private var lastProblem: String?

    public init(
        path: String, queue pending: ScrobbleQueue, clock: ScrobbleClock, version: String, pollSeconds: Double = 5,
        logger: Logger
    ) {
        self.path = path
        self.pending = pending
        self.clock = clock
        header = Scrobble.header(version: version)
        self.pollSeconds = pollSeconds
        self.logger = logger
    }

    /// Queues a listen of `track` that counted at `positionMS` (see the start-time rule above), durably,
    /// then has the log's queue write what it can.
    public func record(_ track: TrackID, _ rating: Scrobble.Rating, positionMS: Int) {
        let position = Int64(max(0, positionMS))
        let startUnix: Int64? = clock.isSynchronised() ? (clock.unixMS() - position) / 1000 : nil
        do {
            try pending.add(
                track, rating: rating, bootID: clock.bootID, startBootMS: clock.bootMS() - position,
                startUnix: startUnix)
        } catch {
            logger.error("scrobble log: cannot queue a listen: \(error)")
        }
        queue.async { [self] in flush() }
    }

    /// Writes what waited from before (an earlier run's listens, an append left unconfirmed).
    public func start() {
        queue.async { [self] in flush() }
    }

    /// Waits for a write under way; nothing is written after (what waits stays in the database).
    public func stop() {
        queue.sync { stopped = true }
    }

    /// Writes what can be written now and returns when done (tests).
    public func flushNow() {
        queue.sync { flush() }
    }

    /// On `queue`: confirms an interrupted append; with the clock right, gives waiting listens their start
    /// times; appends those whose start is known; with listens still waiting, asks again in `pollSeconds`.
    private func flush() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !stopped else { return }
        do {
            try confirmUnfinishedAppend()
            if clock.isSynchronised() {
                let dropped = try pending.resolve(
                    bootID: clock.bootID, bootNowMS: clock.bootMS(), unixNowMS: clock.unixMS())
                if dropped > 0 {
                    logger.warning(
                        """
                        scrobble log: dropped \(dropped) listen(s) made before the clock was set in an earlier boot: \
                        when they began cannot be known
                        """)
                }
            }
            // Listens whose start is known are written even if the clock has lost its sync since.
            while true {
                let batch = try pending.nextBatch(limit: 200)
                if batch.isEmpty { break }
                try append(batch)
            }
            if lastProblem != nil { logger.info("scrobble log: writing \(path) again") }
            lastProblem = nil
            if try pending.count() > 0 { schedulePoll() }
        } catch {
            let problem = "\(error)"
            if problem != lastProblem { logger.error("scrobble log: cannot write \(path): \(problem)") }
            lastProblem = problem
            schedulePoll()
        }
    }

    private func schedulePoll() {
        guard !pollScheduled else { return }
        pollScheduled = true
        queue.asyncAfter(deadline: .now() + pollSeconds) { [self] in
            pollScheduled = false
            flush()
        }
    }

    /// Appends the lines of `batch` (after the header when the file is new or empty), fsynced, then
    /// deletes them from the queue.
    private func append(_ batch: [ScrobbleQueue.Entry]) throws {
        let file = try LogFile(appendingTo: path)
        let offset = try file.size()
        let ids = batch.map(\.id)
        try pending.markAppending(ids, at: offset)
        try file.append(expected(batch, at: offset))
        try file.sync(directoryToo: offset == 0)
        try pending.delete(ids)
    }

    /// What an append of `batch` at `offset` writes.
    private func expected(_ batch: [ScrobbleQueue.Entry], at offset: Int64) -> [UInt8] {
        Array(((offset == 0 ? header : "") + batch.map(\.scrobble.line).joined()).utf8)
    }

    /// After a crash between an append and its delete: see the crash rule above.
    private func confirmUnfinishedAppend() throws {
        let entries = try pending.unconfirmed()
        guard let offset = entries.first?.logOffset else { return }
        let ids = entries.map(\.id)
        let want = expected(entries, at: offset)
        let size = FileManager.default.fileExists(atPath: path) ? try LogFile(appendingTo: path).size() : 0
        if size < offset {
            logger.warning(
                "scrobble log: \(path) is shorter than before an unconfirmed append: writing \(ids.count) line(s) again"
            )
            try pending.unmark(ids)
            return
        }
        let file = try LogFile(appendingTo: path)
        let there = try file.read(from: offset, count: want.count)
        if there == want {
            try pending.delete(ids)  // written and synced: only the delete was missing
        } else {
            logger.warning("scrobble log: an append to \(path) was cut short: writing its \(ids.count) line(s) again")
            try file.truncate(to: offset)
            try file.sync(directoryToo: false)
            try pending.unmark(ids)
        }
    }
}
