import Dispatch
import Foundation
public import GRDB
public import Logging
import Synchronization

/// Indexes the music folder into the library database, incrementally.
///
/// A scan walks the folder, compares every file's size and mtime with the database, reads only new
/// and changed files (on several threads, each with its own libmpg123 handle), and writes them in
/// batches, one transaction each, so a scan killed at any moment leaves a consistent database that
/// the next scan completes. A file that vanished while a new file with the same size and tag
/// fingerprint appeared is a move: its row, id and play state follow it.
///
/// Thread rules: `run` blocks its caller (never call it on Swift's cooperative pool); reading
/// happens on Dispatch worker threads; only the calling thread writes.
public final class LibraryScanner {
    let root: String
    let database: any DatabaseWriter
    let logger: Logger
    let threads: Int
    /// Files read and written per transaction.
    static let batchSize = 128

    public init(musicFolder: String, database: any DatabaseWriter, logger: Logger, threads: Int? = nil) {
        root = musicFolder
        self.database = database
        self.logger = logger
        self.threads = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Runs one scan; `progress` is called on the calling thread.
    public func run(progress: (ScanProgress) -> Void = { _ in }) throws -> ScanSummary {
        let started = DispatchTime.now()
        var summary = ScanSummary()
        progress(ScanProgress(phase: .walking, done: 0, total: 0))
        let walk = DirectoryWalker(root: root).walk()
        let known = try database.read { try KnownFiles(db: $0) }

        var toRead: [DirectoryWalker.Entry] = []
        var seen = Set<RawPath>()
        seen.reserveCapacity(walk.audio.count)
        for entry in walk.audio {
            let key = RawPath(entry.relative)
            seen.insert(key)
            if let t = known.tracks[key], t.size == entry.size, t.mtimeNS == entry.mtimeNS {
                summary.unchanged += 1
            } else if let s = known.skipped[key], s.size == entry.size, s.mtimeNS == entry.mtimeNS {
                summary.skipped += 1
            } else {
                toRead.append(entry)
            }
        }
        var missing: [Int64: (size: Int, fingerprint: Int64)] = [:]
        for (path, t) in known.tracks where !seen.contains(path) { missing[t.id] = (t.size, t.fingerprint) }

        let now = Int64(Date().timeIntervalSince1970)
        let finishPending = known.unfinished
        // The name caches cost a read of every artist and album: only when something will be written.
        var writer = try toRead.isEmpty && missing.isEmpty && !finishPending
            ? LibraryWriter.empty : database.read { try LibraryWriter($0) }
        if !toRead.isEmpty || !missing.isEmpty {
            try database.write { try Self.markUnfinished($0) }
        }
        let readers = toRead.isEmpty ? [] : try (0..<threads).map { _ in try TrackReader() }
        // Episodes the podcast subscriptions downloaded: what their files' tags lack comes from the feed.
        let feeds = toRead.isEmpty ? [:] : try database.read { try SubscriptionStore.feedEpisodesByPath($0) }
        var done = 0
        progress(ScanProgress(phase: .reading, done: 0, total: toRead.count))
        for start in stride(from: 0, to: toRead.count, by: Self.batchSize) {
            let batch = Array(toRead[start..<min(toRead.count, start + Self.batchSize)])
            let outcomes = read(batch, readers: readers, feeds: feeds)
            try database.write { db in
                for (entry, outcome) in zip(batch, outcomes) {
                    try self.store(entry, outcome, known: known, missing: &missing, writer: &writer, now: now,
                                   summary: &summary, db: db)
                }
            }
            done += batch.count
            progress(ScanProgress(phase: .reading, done: done, total: toRead.count))
        }

        progress(ScanProgress(phase: .finishing, done: done, total: toRead.count))
        let changed = !toRead.isEmpty || !missing.isEmpty || finishPending
        try database.write { db in
            for id in missing.keys {
                try db.execute(sql: "DELETE FROM tracks WHERE id = ?", arguments: [id])
                summary.removed += 1
            }
            try ProblemStore.forget(pathsOtherThan: seen, known: known, db)
            for (path, problem) in walk.problems { try ProblemStore.record(path: path, size: 0, mtimeNS: 0, skipped: true, problem, db) }
            if changed {
                try writer.pruneOrphans(db)
                try LibraryWriter.renumber(db)
            }
            let before = db.totalChangesCount
            summary.playlists = try PlaylistIndexer(root: root, logger: logger)
                .update(walk.playlists, force: changed, db)
            summary.changed = changed || db.totalChangesCount != before
            try db.execute(sql: "DELETE FROM library_meta WHERE key = 'scan_unfinished'")
            summary.tracks = try Int.fetchOne(db, sql: "SELECT count(*) FROM tracks") ?? 0
        }
        for (path, problem) in walk.problems where known.problems[RawPath(path)] == nil {
            logger.warning("skipped \(TrackPath(raw: path).display): \(problem.reason)")
        }
        summary.skipped += walk.problems.count
        summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        return summary
    }

    /// Reads `batch` on up to `readers.count` threads; results in batch order.
    ///
    /// The workers take file indices from one atomic counter, so each index goes to exactly one worker,
    /// which writes that index's slot and no other: the slots need no lock, and `concurrentPerform`
    /// returning orders every write before the results are read. They take them in inode order (the
    /// disk's, near enough), and each, before reading its file, asks the kernel for the first and last
    /// page of a file a few places ahead (`ReadAhead`), so the disk fetches those while this one is
    /// parsed. The results, and so the rows' order and ids, stay in batch order.
    private func read(
        _ batch: [DirectoryWalker.Entry], readers: [TrackReader], feeds: [String: Podcasts.FeedEpisode]
    ) -> [TrackReader.Outcome] {
        let next = Atomic<Int>(0)
        let slots = UnsafeMutableBufferPointer<TrackReader.Outcome?>.allocate(capacity: batch.count)
        slots.initialize(repeating: nil)
        defer {
            slots.deinitialize()
            slots.deallocate()
        }
        let rootBytes = Array(root.utf8)
        let order = batch.indices.sorted { (batch[$0].inode, $0) < (batch[$1].inode, $1) }
        let lookahead = 2 * readers.count
        let shared = UnsafeSendable((readers: readers, slots: slots))
        DispatchQueue.concurrentPerform(iterations: min(readers.count, batch.count)) { worker in
            let reader = shared.value.readers[worker]
            while true {
                let k = next.add(1, ordering: .relaxed).oldValue
                guard k < order.count else { return }
                if k + lookahead < order.count {
                    let ahead = batch[order[k + lookahead]]
                    ReadAhead.ends(of: rootBytes + [0x2F] + ahead.relative + [0], size: ahead.size)
                }
                let i = order[k]
                let relative = TrackPath(raw: batch[i].relative).display
                shared.value.slots[i] = reader.read(
                    path: rootBytes + [0x2F] + batch[i].relative + [0], relativePath: relative, feed: feeds[relative])
            }
        }
        return slots.map { $0! }
    }

    private func store(
        _ entry: DirectoryWalker.Entry, _ outcome: TrackReader.Outcome, known: KnownFiles,
        missing: inout [Int64: (size: Int, fingerprint: Int64)], writer: inout LibraryWriter, now: Int64,
        summary: inout ScanSummary, db: Database
    ) throws {
        let path = TrackPath(raw: entry.relative)
        try ProblemStore.clear(path: path, db)
        let existing = known.tracks[RawPath(entry.relative)]
        switch outcome {
        case .skipped(let problem):
            logger.warning("skipped \(path.display): \(problem.reason)")
            try ProblemStore.record(path: entry.relative, size: entry.size, mtimeNS: entry.mtimeNS, skipped: true, problem, db)
            if let existing { try db.execute(sql: "DELETE FROM tracks WHERE id = ?", arguments: [existing.id]) }
            summary.skipped += 1
        case .track(var m):
            if path.bytes != nil {
                m.problems.append(ScanProblem("invalid-filename", "the file name is not valid UTF-8"))
            }
            for problem in m.problems {
                logger.notice("indexed with a problem \(path.display): \(problem.reason)")
                try ProblemStore.record(path: entry.relative, size: entry.size, mtimeNS: entry.mtimeNS, skipped: false, problem, db)
            }
            var replacing = existing?.id
            var addedAt = now
            if replacing == nil, let moved = missing.first(where: { $0.value.size == entry.size && $0.value.fingerprint == m.fingerprint }) {
                replacing = moved.key
                missing[moved.key] = nil
                addedAt = try Int64.fetchOne(db, sql: "SELECT added_at FROM tracks WHERE id = ?", arguments: [moved.key]) ?? now
                summary.moved += 1
            } else if existing != nil {
                addedAt = existing?.addedAt ?? now
                summary.updated += 1
            } else {
                summary.added += 1
            }
            _ = try writer.write(m, path: path, size: entry.size, mtimeNS: entry.mtimeNS, addedAt: addedAt,
                                 replacing: replacing, in: db)
        }
    }

    static func markUnfinished(_ db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO library_meta (key, value) VALUES ('scan_unfinished', '1')")
    }
}

/// Hands what the reading threads share to `concurrentPerform`: each worker uses its own reader and
/// writes only the result slots whose indices it took.
private struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// `@unchecked Sendable`: an outcome is made on one reading thread and handed over once, in its result slot.
extension TrackReader.Outcome: @unchecked Sendable {}
