import CPulse

/// Writing, corking, flushing, draining, volume and timing of a playback stream.
///
/// Thread rules: the owning thread only (never the loop thread); each method takes the loop lock.
extension PulseStream {
    private var loop: PulseMainloop { context.mainloop }

    /// Bytes the server will take now without growing the latency (`pa_stream_writable_size`); 0 when the
    /// stream is not ready.
    public func writableSize() -> Int {
        loop.withLock {
            let n = pa_stream_writable_size(stream)
            return n == Int.max || n == -1 ? 0 : n
        }
    }

    /// `writableSize()` and `playedTime()` under one lock: the audio thread asks for both on every wakeup,
    /// and each lock taken right after the write callback woke it waits for the loop thread to let go.
    public func writableSizeAndPlayedTime() -> (writable: Int, played: UInt64?) {
        loop.withLock {
            let n = pa_stream_writable_size(stream)
            var usec: pa_usec_t = 0
            let played: UInt64? = pa_stream_get_time(stream, &usec) < 0 ? nil : Self.clock(usec)
            return (n == Int.max || n == -1 ? 0 : n, played)
        }
    }

    /// Queues `bytes` (whole frames) after what was written before (`pa_stream_write`, PA_SEEK_RELATIVE,
    /// copied by libpulse).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(PulseError) {
        precondition(bytes.count % spec.frameSize == 0, "writes must hold whole frames")
        guard bytes.count > 0 else { return }
        try loop.withLock { () throws(PulseError) in
            try PulseError.check(
                pa_stream_write(stream, bytes.baseAddress, bytes.count, nil, 0, PA_SEEK_RELATIVE), "pa_stream_write",
                context: context.context)
        }
    }

    /// Pauses (`true`) or resumes the stream and waits for the server's answer (`pa_stream_cork`).
    public func cork(_ paused: Bool) throws(PulseError) {
        try loop.withLock { () throws(PulseError) in
            try run("pa_stream_cork") { pa_stream_cork(stream, paused ? 1 : 0, signalLoopOnSuccess, $0) }
        }
    }

    /// Starts playback now even if less than `prebuf` is queued (`pa_stream_trigger`), e.g. for a track
    /// shorter than the buffer.
    public func trigger() throws(PulseError) {
        try loop.withLock { () throws(PulseError) in
            try run("pa_stream_trigger") { pa_stream_trigger(stream, signalLoopOnSuccess, $0) }
        }
    }

    /// Drops everything queued but not yet played (`pa_stream_flush`), then fetches fresh timing
    /// (`pa_stream_update_timing_info`) and returns the byte index where the next write will land
    /// (`pa_timing_info.write_index`; the server moves it back to its read index).
    @discardableResult
    public func flush() throws(PulseError) -> Int64 {
        try loop.withLock { () throws(PulseError) in
            try run("pa_stream_flush") { pa_stream_flush(stream, signalLoopOnSuccess, $0) }
            try run("pa_stream_update_timing_info") {
                pa_stream_update_timing_info(stream, signalLoopOnSuccess, $0)
            }
            guard let info = pa_stream_get_timing_info(stream) else {
                throw PulseError.last(context.context, "pa_stream_get_timing_info")
            }
            return info.pointee.write_index_corrupt == 0 ? info.pointee.write_index : info.pointee.read_index
        }
    }

    /// Asks the server to play out what is queued (`pa_stream_drain`) without waiting; `.drained` arrives
    /// through `onEvent`. One drain at a time: a running one is cancelled first.
    public func drain() throws(PulseError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try loop.withLock { () throws(PulseError) in
            cancelDrain()
            let op = try PulseError.check(
                pa_stream_drain(
                    stream,
                    { _, success, userdata in
                        guard let userdata else { return }
                        Unmanaged<PulseStream>.fromOpaque(userdata)._withUnsafeGuaranteedRef { owner in
                            if let op = owner.drainOperation.take() { pa_operation_unref(op) }
                            owner.handler(.drained(success: success != 0))
                        }
                    }, me), "pa_stream_drain", context: context.context)
            drainOperation = op
        }
    }

    /// Forgets a running drain (`pa_operation_cancel`): the stream keeps playing and can take more data.
    public func cancelDrain() {
        loop.withLock {
            if let op = drainOperation.take() {
                pa_operation_cancel(op)
                pa_operation_unref(op)
            }
        }
    }

    /// Sets this stream's volume (`pa_context_set_sink_input_volume` on `pa_stream_get_index`); `volume` is
    /// a `pa_volume_t`, `PA_VOLUME_NORM` (0x10000) being 100 %.
    public func setVolume(_ volume: UInt32) throws(PulseError) {
        let index = loop.withLock { pa_stream_get_index(stream) }
        try context.setSinkInputVolume(index: index, channels: spec.channels, volume: volume)
    }

    /// Microseconds of this stream played so far by the sound card's clock (`pa_stream_get_time`,
    /// interpolated); nil before the first timing update. Stops while corked; not reset by a flush.
    public func playedTime() -> UInt64? {
        loop.withLock {
            var usec: pa_usec_t = 0
            return pa_stream_get_time(stream, &usec) < 0 ? nil : Self.clock(usec)
        }
    }

    /// A clock reading as a time, or nil when it cannot be one: past `Int64.max` microseconds (PA_USEC_INVALID,
    /// or a negative interpolation wrapped around). A server restarting can give one, and converting it to
    /// frames would trap the audio thread.
    public static func clock(_ usec: UInt64) -> UInt64? { usec <= UInt64(Int64.max) ? usec : nil }

    /// The time until what is written now is heard (`pa_stream_get_latency`); nil before timing data.
    public func latency() -> Int64? {
        loop.withLock {
            var usec: pa_usec_t = 0
            var negative: Int32 = 0
            guard pa_stream_get_latency(stream, &usec, &negative) >= 0, Self.clock(usec) != nil else { return nil }
            return negative != 0 ? -Int64(usec) : Int64(usec)
        }
    }

    /// The sink input index (`pa_stream_get_index`) and the sink index (`pa_stream_get_device_index`).
    public var indices: (sinkInput: UInt32, sink: UInt32) {
        loop.withLock { (pa_stream_get_index(stream), pa_stream_get_device_index(stream)) }
    }

    /// Lock held exactly once (`pa_threaded_mainloop_wait` releases one level only: a nested lock would
    /// deadlock the loop thread): starts an operation whose completion signals the loop and waits for it;
    /// throws when the stream or the context died meanwhile.
    private func run(
        _ name: String, _ start: (UnsafeMutableRawPointer) -> OpaquePointer?
    ) throws(PulseError) {
        let op = try PulseError.check(start(UnsafeMutableRawPointer(loop.loop)), name, context: context.context)
        let done = loop.wait(for: op) { state != .ready || context.state != .ready }
        if !done { throw PulseError.last(context.context, name) }
    }
}
