import ClickWheelCore
import PropertyBased
import Testing

/// The play queue under random operation sequences (issue 21): song ids stay unique and are never
/// reused, the version goes up by one per change, and `changes(since:)` names exactly the entries
/// that moved, arrived or changed priority (what an MPD client's `plchanges` refetches).
@Suite struct PlayQueuePropertyTests {
    /// One operation, its numbers taken modulo the queue's size when it runs (as the engine checks them).
    enum Operation: Sendable, CustomStringConvertible {
        case replace(Int), insert(Int, at: Int), remove(Int, Int), move(Int, Int, to: Int), swap(Int, Int)
        case reorder(seed: Int), priority(Int, Int), clear

        var description: String {
            switch self {
            case .replace(let n): "replace(\(n))"
            case .insert(let n, let at): "insert(\(n), at: \(at))"
            case .remove(let a, let b): "remove(\(a), \(b))"
            case .move(let a, let b, let to): "move(\(a), \(b), to: \(to))"
            case .swap(let a, let b): "swap(\(a), \(b))"
            case .reorder(let seed): "reorder(\(seed))"
            case .priority(let i, let p): "priority(\(i), \(p))"
            case .clear: "clear"
            }
        }
    }

    static let small = Gen.int(in: 0...12)
    static let operation = Gen.int(in: 0...7).array(of: 4).map { (n: [Int]) -> Operation in
        switch n[0] {
        case 0: .replace(n[1])
        case 1, 2: .insert(n[1] % 5, at: n[2] * 3 + n[3])
        case 3: .remove(n[1], n[2])
        case 4: .move(n[1], n[2], to: n[3])
        case 5: .swap(n[1], n[2])
        case 6: .reorder(seed: n[1] * 64 + n[2] * 8 + n[3])
        default: n[1] == 7 ? .clear : .priority(n[2], n[3] * 30)
        }
    }

    @Test func idsStayUniqueAndVersionsTellExactlyWhatChanged() async {
        await propertyCheck(count: 500, input: Self.operation.array(of: 1...40)) { operations in
            var queue = PlayQueue()
            var allocated = Set<Int>()
            var track: TrackID = 0
            func tracks(_ n: Int) -> [TrackID] {
                defer { track += TrackID(n) }
                return (0..<n).map { track + TrackID($0) }
            }
            for operation in operations {
                let before = queue
                let count = queue.count
                var newIDs: [Int] = []
                switch operation {
                case .replace(let n): queue.replace(with: tracks(n))
                case .insert(let n, let at): newIDs = queue.insert(tracks(n), at: at)
                case .remove(let a, let b): queue.remove(min(a, b)..<max(a, b))
                case .move(let a, let b, let to):
                    guard count > 0 else { continue }
                    let lo = min(a, b) % count, hi = min(count, lo + abs(a - b))
                    queue.move(lo..<hi, to: to % (count - (hi - lo) + 1))
                case .swap(let a, let b):
                    guard count > 0 else { continue }
                    queue.swapAt(a % count, b % count)
                case .reorder(let seed):
                    var ids = queue.ids
                    var s = seed
                    for i in ids.indices.reversed() where i > 0 {
                        s = (s &* 1_103_515_245 &+ 12345) & 0x7FFF_FFFF
                        ids.swapAt(i, s % (i + 1))
                    }
                    queue.reorder(byIDs: Array(ids.dropLast(seed % 3)))
                case .priority(let i, let p):
                    guard count > 0 else { continue }
                    queue.setPriority(p, at: i % count)
                case .clear: queue.removeAll()
                }

                let ids = queue.ids
                #expect(Set(ids).count == ids.count, "duplicate ids after \(operation): \(ids)")
                // New ids are new: above every id ever handed out, never one seen before.
                for id in ids where !before.ids.contains(id) {
                    #expect(!allocated.contains(id), "id \(id) reused after \(operation)")
                    #expect(allocated.allSatisfy { $0 < id }, "id \(id) below an earlier one after \(operation)")
                }
                if case .insert = operation {
                    #expect(Set(newIDs) == Set(ids).subtracting(before.ids), "insert's ids after \(operation)")
                }
                allocated.formUnion(ids)

                // The version: never down, up by one at most, up for every change; entries never ahead of it.
                #expect((0...1).contains(queue.version - before.version), "version after \(operation)")
                #expect(before.entries == queue.entries || queue.version == before.version + 1)
                #expect(queue.entries.allSatisfy { $0.version <= queue.version })
                // changes(since: old version) is exactly the entries not at the same place with the same content.
                let reported = Set(queue.changes(since: before.version).map(\.position))
                let expected = Set(
                    queue.indices.filter { i in
                        i >= before.count || before[i].id != queue[i].id || before[i].priority != queue[i].priority
                    })
                #expect(reported == expected, "changes after \(operation): \(reported) vs \(expected)")
            }
        }
    }
}
