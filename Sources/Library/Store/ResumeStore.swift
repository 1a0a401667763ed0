public import ClickWheelCore
import Foundation
public import GRDB
import Synchronization

/// Keeps the engine's resume checkpoints (`Effect.checkpoint`) in the library database, table
/// `resume_state` (one row), and reads the last one back at start.
///
/// Each checkpoint is one small transaction; the queue's id lists are rewritten only when they
/// changed since the last checkpoint this store wrote (a 100,000-track queue is 800 KB), otherwise
/// only the current entry, position, status and time are.
///
/// Thread rules: any thread (GRDB serialises writes; the last written queue is behind a mutex).
public final class ResumeStore: Sendable {
    let db: any DatabaseWriter
    private let written = Mutex<(queue: [TrackID], unshuffled: [TrackID]?)?>(nil)

    public init(_ db: any DatabaseWriter) { self.db = db }

    /// Stores `state`, stamped `savedAtMS` (unix milliseconds; default: now). `alongWith` is written in
    /// the same transaction (a play count with the checkpoint that has passed it: see `EngineLoop`).
    public func save(
        _ state: ResumeState, savedAtMS: Int64 = ResumeStore.nowMS(), alongWith: ((Database) throws -> Void)? = nil
    ) throws {
        let sameQueue = written.withLock { w in w.map { $0.queue == state.queue && $0.unshuffled == state.unshuffledQueue } ?? false }
        let status = Self.name(of: state.status)
        if sameQueue && alongWith == nil {
            // The checkpoint of every few seconds while playing: one statement, compiled once (GRDB's
            // statement cache: no parse and no authorizer pass each time), run as its own transaction
            // (SQLite's autocommit, as atomic as BEGIN…COMMIT around it, without those two statements).
            let updated = try db.writeWithoutTransaction { db in
                try db.cachedStatement(sql: Self.updateSQL).execute(
                    arguments: [state.current, state.positionMS, status, savedAtMS])
                return db.changesCount == 1
            }
            if updated { return }
        }
        try db.write { db in
            try alongWith?(db)
            if sameQueue {
                try db.execute(sql: Self.updateSQL, arguments: [state.current, state.positionMS, status, savedAtMS])
                if db.changesCount == 1 { return }
            }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO resume_state (id, queue, unshuffled, current, position_ms, status, saved_at)
                    VALUES (1, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    Self.blob(state.queue), state.unshuffledQueue.map(Self.blob), state.current, state.positionMS,
                    status, savedAtMS,
                ])
        }
        written.withLock { $0 = (state.queue, state.unshuffledQueue) }
    }

    /// A checkpoint of the same queue: only where in it, and when.
    static let updateSQL = "UPDATE resume_state SET current = ?, position_ms = ?, status = ?, saved_at = ? WHERE id = 1"

    /// The last checkpoint with the entries whose tracks are gone from the library dropped (see
    /// `ResumeState.keeping`); nil when none is stored or nothing of it is left. A queue with no current
    /// entry is returned too (the engine brings it back stopped).
    public func load() throws -> ResumeState? {
        try db.read { db -> ResumeState? in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM resume_state WHERE id = 1") else { return nil }
            let saved = ResumeState(
                queue: Self.ids(row["queue"]), unshuffledQueue: (row["unshuffled"] as Data?).map(Self.ids),
                current: row["current"], positionMS: row["position_ms"], status: Self.status(named: row["status"]),
                savedAtMS: row["saved_at"])
            let known = Set(try TrackID.fetchAll(db, sql: "SELECT id FROM tracks"))
            let state = saved.keeping { known.contains($0) }
            return state.queue.isEmpty ? nil : state
        }
    }

    /// Unix milliseconds now.
    public static func nowMS() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    static func name(of status: Player.Status) -> String {
        switch status {
        case .stopped: "stopped"
        case .playing: "playing"
        case .paused: "paused"
        }
    }

    static func status(named name: String) -> Player.Status {
        switch name {
        case "playing": .playing
        case "paused": .paused
        default: .stopped
        }
    }

    /// Track ids as 8-byte little-endian integers.
    static func blob(_ ids: [TrackID]) -> Data {
        var data = Data(capacity: ids.count * 8)
        for id in ids { withUnsafeBytes(of: id.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    static func ids(_ data: Data) -> [TrackID] {
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count - bytes.count % 8, by: 8).map { i in
            var v: UInt64 = 0
            for b in 0..<8 { v |= UInt64(bytes[i + b]) << (8 * UInt64(b)) }
            return TrackID(bitPattern: v)
        }
    }
}
