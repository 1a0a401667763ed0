@testable import ControlServer
import ClickWheelTestKit
import Foundation
import GRDB
import Library
import Testing

/// Clients that ask for a long listing and then read nothing must not hold up anyone else: each
/// listing waits for its own client without keeping a database reader (the pool has five) or a shared
/// worker thread. Before, eight such clients made a third client's `stats` wait for the 60 s timeout.
@Suite(.serialized) struct StalledClientTests {
    /// The fixture library and a hundred copies of it, under `Copies/NNN/`: a listing of over a
    /// megabyte, more than the socket buffer and the streaming window hold together.
    static let big: DatabasePool = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-big-lib-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let pool = try! LibraryDatabase.open(at: dir.appendingPathComponent("lib.sqlite").path)
        try! ServerFixture.pool.backup(to: pool)
        try! pool.write { db in
            let columns = try db.columns(in: "tracks").map(\.name).filter { $0 != "id" }
            let values = columns.map { $0 == "path" ? "'Copies/' || printf('%03d', n.i) || '/' || path" : $0 }
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
                INSERT INTO tracks (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM tracks, n
                """)
        }
        return pool
    }()

    /// Bytes waiting to be read on a client's socket.
    static func unread(_ c: RawClient) -> Int32 {
        var n: Int32 = 0
        _ = ioctl(c.fd, UInt(FIONREAD), &n)
        return n
    }

    @Test func stalledListingsHoldUpNoOtherClient() throws {
        let songs = try Self.big.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM tracks") } ?? 0
        let f = try ServerFixture(library: Self.big)
        let stalled = try (0..<8).map { _ in try RawClient(f.socket) }
        for c in stalled {
            _ = c.response()
            c.send("listallinfo\n")
        }
        // Until what the listings sent stops growing (the same for 0.6 s, every listing begun): each has
        // filled its socket and waits for its client. (A slow build, such as Thread Sanitizer's, takes a
        // while to read the library before the first byte: the deadline is generous.)
        var samples: [[Int32]] = []
        let deadline = Date().addingTimeInterval(120)
        repeat {
            usleep(200_000)
            samples = (samples + [stalled.map(Self.unread)]).suffix(4)
        } while (samples.count < 4 || Set(samples).count > 1 || samples[samples.count - 1].contains(0)) && Date() < deadline
        #expect(samples[0].allSatisfy { $0 > 64 << 10 }, "every listing started and filled its client's socket")

        // Another client is answered meanwhile, database commands included (the receive timeout is 10 s;
        // the stalled clients would be closed only after 60 s).
        let other = try RawClient(f.socket)
        _ = other.response()
        #expect(other.roundTrip("stats").contains("\nsongs: \(songs)\n"))
        #expect(other.roundTrip("lsinfo \"Copies/042\"").hasSuffix("OK\n"))
        #expect(other.roundTrip("find artist \"nobody at all\"") == "OK\n")
        let whole = other.roundTrip("listallinfo")
        #expect(whole.components(separatedBy: "\nfile: ").count - 1 == songs)
        #expect(whole.hasSuffix("\nOK\n"))

        // And the stalled listings went on, each whole, once their clients read.
        for c in stalled {
            #expect(c.response() == whole)
        }
    }
}
