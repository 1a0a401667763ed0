import GRDB
import Library
import Logging
import NamedThreads
import Synchronization

/// Runs library scans on a thread of their own, one at a time; reports progress through callbacks.
///
/// Thread rules: `start` from any thread; the callbacks run on the scan's thread. `@unchecked
/// Sendable`: the callbacks are set once, before the first `start`; the rest is immutable or in a `Mutex`.
final class BackgroundScanner: @unchecked Sendable {
    private let folder: String
    private let pool: DatabasePool
    private let logger: Logger
    /// Whether a scan runs, and whether another was asked for meanwhile (it runs right after).
    private let state = Mutex((running: false, again: false))
    var onProgress: @Sendable (Int) -> Void = { _ in }
    /// Runs after each scan, told whether the library changed (a failed scan counts as a change).
    var onFinished: @Sendable (_ changed: Bool) -> Void = { _ in }

    init(folder: String, pool: DatabasePool, logger: Logger) {
        self.folder = folder
        self.pool = pool
        self.logger = logger
    }

    /// Starts a scan; while one runs, one more is queued (any number of requests make one more scan).
    func start() {
        let already = state.withLock { s in
            defer { s.running = true }
            if s.running { s.again = true }
            return s.running
        }
        guard !already else { return }
        run()
    }

    private func run() {
        do {
            try NamedThread.detach(name: "cw-scan") { [self] in
                scanOnce()
                let again = state.withLock { s in
                    s.running = s.again
                    s.again = false
                    return s.running
                }
                if again { run() }
            }
        } catch {
            logger.error("library scan: \(error)")
            state.withLock { $0 = (false, false) }
        }
    }

    private func scanOnce() {
        var changed = true
        do {
            let summary = try LibraryScanner(musicFolder: folder, database: pool, logger: logger).run { p in
                if p.phase == .reading, p.total > 0 { self.onProgress(p.done) }
            }
            changed = summary.changed
            logger.info("library: \(summary.tracks) tracks (added \(summary.added), removed \(summary.removed), skipped \(summary.skipped))")
        } catch {
            logger.error("library scan failed: \(error)")
        }
        onFinished(changed)
    }
}
