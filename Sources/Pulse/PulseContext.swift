import CPulse
import Synchronization

/// Owns one `pa_context` (a connection to the sound server): `init` calls `pa_context_new_with_proplist`,
/// `deinit` calls `pa_context_disconnect` and `pa_context_unref`.
///
/// Thread rules: every method takes the loop lock itself and must not be called on the loop thread, except
/// where noted. `onEvent` runs on the loop thread with the lock held: it must only record and wake, never
/// block. A context that reached `.failed` or `.terminated` is dead for good: make a new one to reconnect.
/// `@unchecked Sendable`: libpulse's context and the recorded state are touched only under the threaded mainloop's lock.
public final class PulseContext: @unchecked Sendable {
    /// Where the connection stands (`pa_context_state_t`, collapsed).
    public enum State: Sendable, Equatable {
        case connecting, ready, failed, terminated
    }

    /// What the loop thread reports to the owner.
    public enum Event: Sendable, Equatable {
        /// The connection changed state (`pa_context_set_state_callback`).
        case state(State)
        /// A sink was removed (`pa_context_subscribe`, facility SINK, type REMOVE): the index it had.
        case sinkRemoved(index: UInt32)
    }

    public let mainloop: PulseMainloop
    let context: OpaquePointer
    private let stateBox = Mutex(State.connecting)
    private let handler: @Sendable (Event) -> Void

    /// Creates an unconnected context named `name` (`pa_context_new_with_proplist`, `media.role`=music).
    /// `onEvent` is called on the loop thread, lock held.
    public init(
        mainloop: PulseMainloop, name: String, onEvent: @escaping @Sendable (Event) -> Void
    ) throws(PulseError) {
        self.mainloop = mainloop
        handler = onEvent
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        pa_proplist_sets(props, PA_PROP_APPLICATION_NAME, name)
        pa_proplist_sets(props, PA_PROP_MEDIA_ROLE, "music")
        context = try mainloop.withLock { () throws(PulseError) in
            try PulseError.check(
                pa_context_new_with_proplist(mainloop.api, name, props), "pa_context_new_with_proplist", context: nil)
        }
    }

    deinit {
        mainloop.withLock {
            pa_context_set_state_callback(context, nil, nil)
            pa_context_set_subscribe_callback(context, nil, nil)
            pa_context_disconnect(context)
            pa_context_unref(context)
        }
    }

    /// The last state the loop thread saw; any thread.
    public var state: State { stateBox.withLock { $0 } }

    /// Connects to `server` (nil: `$PULSE_SERVER`, client.conf, then the default socket) and blocks the
    /// calling thread until the context is ready or failed (`pa_context_connect` with NOAUTOSPAWN), then
    /// subscribes to sink events (`pa_context_subscribe`).
    public func connect(server: String? = nil) throws(PulseError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try mainloop.withLock { () throws(PulseError) in
            pa_context_set_state_callback(
                context,
                { _, userdata in
                    guard let userdata else { return }
                    Unmanaged<PulseContext>.fromOpaque(userdata)._withUnsafeGuaranteedRef { $0.stateChanged() }
                }, me)
            try PulseError.check(
                pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil), "pa_context_connect",
                context: context)
            while state == .connecting { mainloop.wait() }
            guard state == .ready else { throw PulseError.last(context, "pa_context_connect") }
            pa_context_set_subscribe_callback(
                context,
                { _, event, index, userdata in
                    guard let userdata else { return }
                    Unmanaged<PulseContext>.fromOpaque(userdata)._withUnsafeGuaranteedRef { $0.subscription(event, index) }
                }, me)
            let mask = pa_subscription_mask_t(rawValue: PA_SUBSCRIPTION_MASK_SINK.rawValue)
            guard let op = pa_context_subscribe(context, mask, signalLoopOnSuccess, UnsafeMutableRawPointer(mainloop.loop))
            else { throw PulseError.last(context, "pa_context_subscribe") }
            mainloop.wait(for: op) { state != .ready }
        }
    }

    /// The server's name and version (`pa_context_get_server`, `pa_context_get_server_protocol_version`).
    public var serverDescription: String {
        mainloop.withLock {
            let server = pa_context_get_server(context).map { String(cString: $0) } ?? "?"
            return "\(server) (protocol \(pa_context_get_server_protocol_version(context)))"
        }
    }

    /// Loop thread: records the new state (`pa_context_get_state`), wakes waiters and tells the owner.
    private func stateChanged() {
        let new: State
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY: new = .ready
        case PA_CONTEXT_FAILED: new = .failed
        case PA_CONTEXT_TERMINATED: new = .terminated
        default: new = .connecting
        }
        let old = stateBox.withLock { state in
            defer { state = new }
            return state
        }
        mainloop.signal()
        if old != new { handler(.state(new)) }
    }

    /// Loop thread: decodes a subscription event (facility and type bits of `pa_subscription_event_type_t`).
    private func subscription(_ event: pa_subscription_event_type_t, _ index: UInt32) {
        let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let type = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
        if facility == PA_SUBSCRIPTION_EVENT_SINK.rawValue && type == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue {
            handler(.sinkRemoved(index: index))
        }
    }
}
