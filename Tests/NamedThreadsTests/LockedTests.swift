import NamedThreads
import Testing

/// `Locked` under contention, on real threads: every update is kept, and a throw leaves the lock free.
/// Under the Thread Sanitizer (contrib/ci/tsan.sh, the devices suite) the contended hand-offs must give
/// no report (on a `Mutex`, the same additions are reported as races: see `Locked`).
@Suite struct LockedTests {
    @Test func threadsAddingAtOnceKeepEveryAddition() throws {
        let total = Locked(0)
        let perThread = 20_000
        let threads = try (0..<4).map { i in
            try NamedThread(name: "locked-\(i)") {
                for _ in 0..<perThread { total.withLock { $0 += 1 } }
            }
        }
        threads.forEach { $0.join() }
        #expect(total.withLock { $0 } == 4 * perThread)
    }

    struct Refused: Error {}

    @Test func aThrowLeavesTheValueAsBodyLeftItAndTheLockFree() {
        let items = Locked<[String]>(["a"])
        #expect(throws: Refused.self) {
            try items.withLock { (list: inout [String]) throws(Refused) in
                list.append("b")
                throw Refused()
            }
        }
        // Taken again at once (a lock left held would hang here).
        #expect(items.withLock { $0 } == ["a", "b"])
    }
}
