import CPulse

/// Rewriting what is queued but not yet played (a fade-out over the buffer at pause).
///
/// Thread rules: the owning thread only (never the loop thread); each method takes the loop lock.
extension PulseStream {
    /// The byte index the server reads next, fetched fresh (`pa_stream_update_timing_info`,
    /// `pa_timing_info.read_index`). What lies between it and the write index is not played yet.
    public func readIndex() throws(PulseError) -> Int64 {
        let loop = context.mainloop
        return try loop.withLock { () throws(PulseError) in
            let op = try PulseError.check(
                pa_stream_update_timing_info(stream, signalLoopOnSuccess, UnsafeMutableRawPointer(loop.loop)),
                "pa_stream_update_timing_info", context: context.context)
            let done = loop.wait(for: op) { state != .ready || context.state != .ready }
            guard done, let info = pa_stream_get_timing_info(stream), info.pointee.read_index_corrupt == 0 else {
                throw PulseError.last(context.context, "pa_stream_get_timing_info")
            }
            return info.pointee.read_index
        }
    }

    /// Writes `bytes` (whole frames) at byte index `index` (`pa_stream_write`, PA_SEEK_ABSOLUTE), replacing
    /// what was queued there; the next plain `write` lands after them.
    public func write(_ bytes: UnsafeRawBufferPointer, atIndex index: Int64) throws(PulseError) {
        precondition(bytes.count % spec.frameSize == 0, "writes must hold whole frames")
        guard bytes.count > 0 else { return }
        try context.mainloop.withLock { () throws(PulseError) in
            try PulseError.check(
                pa_stream_write(stream, bytes.baseAddress, bytes.count, nil, index, PA_SEEK_ABSOLUTE),
                "pa_stream_write", context: context.context)
        }
    }
}
