@testable import ControlServer
import MPDProtocol
import Synchronization
import Testing

/// The message board's idle events reach their sink through the same call however many were sent before.
///
/// Found by the soak (2026-11-27): the sink was kept as a bare closure in a `Mutex`, and Swift writes a
/// function value read through `withLock`'s `inout` back re-abstracted, wrapped in two more thunks. Every
/// `subscribe`, `unsubscribe` and `sendmessage` made the next one call through two more: after an hour of
/// the soak's clients, 20,000 thunk frames (770 KiB of stack) stood between `MessageBoard.send` and the
/// server, with the thunks' contexts growing on the heap, towards a stack overflow.
@Suite struct MessageBoardTests {
    /// The stack depth at which the sink runs, in bytes from an address taken in the caller.
    final class Depths: Sendable {
        let all = Mutex<[Int]>([])
    }

    static func stackAddress() -> Int {
        var marker = 0
        return withUnsafeMutablePointer(to: &marker) { Int(bitPattern: $0) }
    }

    @Test func theSinkIsReachedAtTheSameDepthAfterThousandsOfEvents() throws {
        let board = MessageBoard()
        let depths = Depths()
        board.deliver { _, _ in
            let here = Self.stackAddress()
            depths.all.withLock { $0.append(here) }
        }
        for _ in 0..<2_000 {
            try board.subscribe(1, to: "ch")
            try board.unsubscribe(1, from: "ch")
        }
        try board.subscribe(2, to: "ch")
        try board.send("hello", on: "ch")
        let all = depths.all.withLock { $0 }
        #expect(all.count == 4_002, "every subscribe, unsubscribe and message told the sink")
        // Called from the same test function each time: the same frame, unless the path to the sink grew
        // (before the fix: 320 KiB here in a debug build, 80 bytes an event).
        let grown = (all.max() ?? 0) - (all.min() ?? 0)
        #expect(grown < 4_096, "the path to the sink grew by \(grown) bytes over \(all.count) events")
    }
}
