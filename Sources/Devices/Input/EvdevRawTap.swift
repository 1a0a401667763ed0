import ClickWheelCore
import Synchronization

/// Where the readers send raw events while someone wants them (Settings → Wheel measuring), besides
/// decoding them as always. One per `EvdevInput`, shared with its readers.
///
/// Thread rules: `set` from any thread; `forward` on reader threads (a lock per event: uncontended,
/// and the sink is normally nil).
final class EvdevRawTap: Sendable {
    /// The closure in a struct: a bare function value read through `Mutex.withLock`'s `inout` comes back
    /// wrapped in two more reabstraction thunks each time (a Swift quirk), so a sink read per event would
    /// call through thousands of them after a measuring session (see `MessageBoard.Sink`).
    private struct Sink: Sendable { let call: @Sendable (String, RawInputEvent) -> Void }
    private let sink = Mutex<Sink?>(nil)

    func set(_ new: (@Sendable (String, RawInputEvent) -> Void)?) { sink.withLock { $0 = new.map(Sink.init) } }

    func forward(_ event: RawInputEvent, from path: String) {
        guard let s = sink.withLock({ $0 }) else { return }
        s.call(path, event)
    }
}

/// A profile waiting to replace a reader's, taken by the reader thread before its next event so the
/// decoder is only ever touched there.
final class EvdevPendingProfile: Sendable {
    private let pending = Mutex<EvdevProfile?>(nil)

    func put(_ profile: EvdevProfile) { pending.withLock { $0 = profile } }

    func take() -> EvdevProfile? {
        pending.withLock { p in
            defer { p = nil }
            return p
        }
    }
}
