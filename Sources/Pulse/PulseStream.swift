import CPulse
import Synchronization

/// Owns one playback `pa_stream`: `init` calls `pa_stream_new_with_proplist`, `deinit` calls
/// `pa_stream_disconnect` and `pa_stream_unref`.
///
/// Thread rules: the methods take the loop lock themselves and are meant for one owning thread (the audio
/// thread), never the loop thread. `onEvent` runs on the loop thread with the lock held: record and wake
/// only. Release the stream before its context. Callbacks reach the stream without retaining it
/// (`_withUnsafeGuaranteedRef`): a retain there could make the loop thread run `deinit`, which takes the
/// lock and trips libpulse's assertion (as when the sink goes away under PipeWire).
/// `@unchecked Sendable`: libpulse's stream and the recorded state are touched only under the threaded mainloop's lock.
public final class PulseStream: @unchecked Sendable {
    /// Where the stream stands (`pa_stream_state_t`, collapsed).
    public enum State: Sendable, Equatable {
        case creating, ready, failed, terminated
    }

    /// What the loop thread reports to the owner.
    public enum Event: Sendable, Equatable {
        case state(State)
        /// The server wants more data (`pa_stream_set_write_callback`).
        case writable
        /// The buffer ran empty (`pa_stream_set_underflow_callback`).
        case underflow
        /// Playback (re)started after prebuffering (`pa_stream_set_started_callback`).
        case started
        /// The stream moved to another sink (`pa_stream_set_moved_callback`): the new sink's index.
        case moved(sink: UInt32)
        /// A drain finished (`pa_stream_drain`'s callback); false when the server refused it.
        case drained(success: Bool)
    }

    public let context: PulseContext
    public let spec: PulseSampleSpec
    let stream: OpaquePointer
    let handler: @Sendable (Event) -> Void
    /// The running drain operation, if any; touched only with the loop lock held (hence no Mutex).
    var drainOperation: OpaquePointer?
    private let stateBox = Mutex(State.creating)

    /// Creates an unconnected playback stream named `name` (`pa_stream_new_with_proplist`, `media.role`=music).
    public init(
        context: PulseContext, name: String, spec: PulseSampleSpec, onEvent: @escaping @Sendable (Event) -> Void
    ) throws(PulseError) {
        self.context = context
        self.spec = spec
        handler = onEvent
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        pa_proplist_sets(props, PA_PROP_MEDIA_ROLE, "music")
        var ss = spec.cValue
        var map = pa_channel_map()
        pa_channel_map_init_auto(&map, UInt32(spec.channels), PA_CHANNEL_MAP_DEFAULT)
        stream = try context.mainloop.withLock { () throws(PulseError) in
            try PulseError.check(
                pa_stream_new_with_proplist(context.context, name, &ss, &map, props), "pa_stream_new_with_proplist",
                context: context.context)
        }
    }

    deinit {
        context.mainloop.withLock {
            if let op = drainOperation.take() {
                pa_operation_cancel(op)
                pa_operation_unref(op)
            }
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_write_callback(stream, nil, nil)
            pa_stream_set_underflow_callback(stream, nil, nil)
            pa_stream_set_started_callback(stream, nil, nil)
            pa_stream_set_moved_callback(stream, nil, nil)
            if pa_stream_get_state(stream) == PA_STREAM_READY { pa_stream_disconnect(stream) }
            pa_stream_unref(stream)
        }
    }

    /// The last state the loop thread saw; any thread.
    public var state: State { stateBox.withLock { $0 } }

    /// Connects for playback on the default sink and blocks until the stream is ready
    /// (`pa_stream_connect_playback` with ADJUST_LATENCY, INTERPOLATE_TIMING, AUTO_TIMING_UPDATE, and
    /// START_CORKED when `corked`). `targetLatency` (ms) becomes `tlength`; the rest is left to the server.
    /// Returns the buffer the server granted (`pa_stream_get_buffer_attr`).
    @discardableResult
    public func connectPlayback(targetLatency: Int, volume: UInt32, corked: Bool) throws(PulseError) -> BufferAttributes {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let ctx = context.context
        return try context.mainloop.withLock { () throws(PulseError) in
            installCallbacks(me)
            var attr = pa_buffer_attr(
                maxlength: UInt32.max, tlength: UInt32(spec.bytes(milliseconds: targetLatency)), prebuf: UInt32.max,
                minreq: UInt32.max, fragsize: UInt32.max)
            var flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
                | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
            if corked { flags |= PA_STREAM_START_CORKED.rawValue }
            var cv = pa_cvolume()
            pa_cvolume_set(&cv, UInt32(spec.channels), volume)
            try PulseError.check(
                pa_stream_connect_playback(stream, nil, &attr, pa_stream_flags_t(rawValue: flags), &cv, nil),
                "pa_stream_connect_playback", context: ctx)
            while state == .creating && context.state == .ready { context.mainloop.wait() }
            guard state == .ready else { throw PulseError.last(ctx, "pa_stream_connect_playback") }
            guard let granted = pa_stream_get_buffer_attr(stream) else {
                throw PulseError.last(ctx, "pa_stream_get_buffer_attr")
            }
            return BufferAttributes(granted.pointee, spec: spec)
        }
    }

    /// Lock held: points every stream callback at `me` (this stream, unretained).
    private func installCallbacks(_ me: UnsafeMutableRawPointer) {
        pa_stream_set_state_callback(
            stream,
            { _, userdata in
                guard let userdata else { return }
                Unmanaged<PulseStream>.fromOpaque(userdata)._withUnsafeGuaranteedRef { $0.stateChanged() }
            }, me)
        pa_stream_set_write_callback(
            stream,
            { _, _, userdata in
                guard let userdata else { return }
                Unmanaged<PulseStream>.fromOpaque(userdata)._withUnsafeGuaranteedRef { $0.handler(.writable) }
            }, me)
        pa_stream_set_underflow_callback(
            stream,
            { _, userdata in
                guard let userdata else { return }
                Unmanaged<PulseStream>.fromOpaque(userdata)._withUnsafeGuaranteedRef { $0.handler(.underflow) }
            }, me)
        pa_stream_set_started_callback(
            stream,
            { _, userdata in
                guard let userdata else { return }
                Unmanaged<PulseStream>.fromOpaque(userdata)._withUnsafeGuaranteedRef { $0.handler(.started) }
            }, me)
        pa_stream_set_moved_callback(
            stream,
            { s, userdata in
                guard let userdata else { return }
                Unmanaged<PulseStream>.fromOpaque(userdata)._withUnsafeGuaranteedRef { $0.handler(
                    .moved(sink: pa_stream_get_device_index(s))) }
            }, me)
    }

    /// Loop thread: records the new state (`pa_stream_get_state`), wakes waiters and tells the owner.
    private func stateChanged() {
        let new: State
        switch pa_stream_get_state(stream) {
        case PA_STREAM_READY: new = .ready
        case PA_STREAM_FAILED: new = .failed
        case PA_STREAM_TERMINATED: new = .terminated
        default: new = .creating
        }
        let old = stateBox.withLock { state in
            defer { state = new }
            return state
        }
        context.mainloop.signal()
        if old != new { handler(.state(new)) }
    }
}

/// The playback buffer the server granted (`pa_buffer_attr`), in bytes and milliseconds.
public struct BufferAttributes: Sendable, Equatable, CustomStringConvertible {
    public var maxLength: Int
    public var targetLength: Int
    public var prebuffer: Int
    public var minimumRequest: Int
    public var targetMilliseconds: Int

    init(_ a: pa_buffer_attr, spec: PulseSampleSpec) {
        maxLength = Int(a.maxlength)
        targetLength = Int(a.tlength)
        prebuffer = Int(a.prebuf)
        minimumRequest = Int(a.minreq)
        targetMilliseconds = Int(a.tlength) * 1000 / spec.bytesPerSecond
    }

    public var description: String {
        "tlength \(targetLength) B (\(targetMilliseconds) ms), prebuf \(prebuffer) B, minreq \(minimumRequest) B"
    }
}
