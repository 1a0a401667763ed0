import ClickWheelCore
import Devices
import Glibc
import Synchronization
import Testing

/// The umockdev environment of `contrib/ci/evdev-tests.sh`: which fake devices exist, and where.
enum EvdevMock {
    /// `CW_TEST_EVDEV_DIR`: the (fake) input directory, e.g. /dev/input.
    static var directory: String? { getenv("CW_TEST_EVDEV_DIR").map { String(cString: $0) } }

    /// True when `CW_TEST_EVDEV_DEVICES` (comma separated) names `device` and the directory is set.
    static func has(_ device: String) -> Bool {
        guard directory != nil, let list = getenv("CW_TEST_EVDEV_DEVICES") else { return false }
        return String(cString: list).split(separator: ",").contains { $0 == device }
    }

    static let skipNote: Comment = "needs the umockdev devices: run contrib/ci/evdev-tests.sh"
}

/// Collects what an input source delivers, from its reader threads.
final class InputRecorder: Sendable {
    private let events = Mutex<[InputEvent]>([])
    private let observations = Mutex<[EvdevObservation]>([])

    var sink: @Sendable (InputEvent) -> Void { { [self] e in events.withLock { $0.append(e) } } }
    var observer: @Sendable (EvdevObservation) -> Void { { [self] o in observations.withLock { $0.append(o) } } }

    var all: [InputEvent] { events.withLock { $0 } }
    var seen: [EvdevObservation] { observations.withLock { $0 } }

    /// Waits until `done` holds for the events, or `seconds` pass; then `settle` ms more for stragglers.
    func wait(seconds: Double, settle: Int = 300, until done: ([InputEvent]) -> Bool) async throws {
        let deadline = MonotonicClock.now().adding(ms: Int64(seconds * 1000))
        while !done(all) && MonotonicClock.now() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(settle))
    }

    /// Waits until at least `minimum` raw events came and then none for `quietMS`, or `seconds` pass.
    func waitUntilQuiet(seconds: Double, minimum: Int, quietMS: Int64 = 1200) async throws {
        let deadline = MonotonicClock.now().adding(ms: Int64(seconds * 1000))
        var count = -1
        var since = MonotonicClock.now()
        while MonotonicClock.now() < deadline {
            let n = seen.count
            if n != count {
                count = n
                since = MonotonicClock.now()
            } else if n >= minimum && MonotonicClock.now().milliseconds(since: since) >= quietMS {
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// Wheel steps and button edges as short words, grouped where the timestamps pause for more than
/// `gapMS`: "wheel +24", "menu down, menu up".
func summarize(_ events: [InputEvent], gapMS: Int64 = 120) -> [String] {
    var groups: [[InputEvent]] = []
    var last: Timestamp?
    for e in events {
        let t: Timestamp
        switch e {
        case .wheel(_, let at), .button(_, _, let at): t = at
        }
        if let l = last, t.milliseconds(since: l) <= gapMS, !groups.isEmpty {
            groups[groups.count - 1].append(e)
        } else {
            groups.append([e])
        }
        last = t
    }
    return groups.map { group in
        var steps = 0
        var words: [String] = []
        for e in group {
            switch e {
            case .wheel(let s, _): steps += s
            case .button(let b, let phase, _): words.append("\(b) \(phase)")
            }
        }
        if words.isEmpty { return "wheel " + (steps > 0 ? "+" : "") + String(steps) }
        return (steps != 0 ? ["wheel \(steps)"] : []).joined() + words.joined(separator: ", ")
    }
}
