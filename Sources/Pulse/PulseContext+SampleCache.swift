import CPulse

/// The server's sample cache: the wheel click is uploaded once per connection and played by name.
///
/// Thread rules: as for `PulseContext` (any thread but the loop thread; the lock is taken here).
extension PulseContext {
    /// Uploads `pcm` (interleaved frames in `spec`) to the sample cache as `name`, blocking until the server
    /// has it (`pa_stream_new`, `pa_stream_connect_upload`, `pa_stream_write`, `pa_stream_finish_upload`).
    /// Samples die with the context: upload again after a reconnect.
    public func uploadSample(name: String, spec: PulseSampleSpec, pcm: [UInt8]) throws(PulseError) {
        precondition(!pcm.isEmpty && pcm.count % spec.frameSize == 0, "sample must hold whole frames")
        try mainloop.withLock { () throws(PulseError) in
            var ss = spec.cValue
            let stream = try PulseError.check(pa_stream_new(context, name, &ss, nil), "pa_stream_new", context: context)
            defer {
                pa_stream_set_state_callback(stream, nil, nil)
                pa_stream_unref(stream)
            }
            pa_stream_set_state_callback(
                stream, { _, userdata in pa_threaded_mainloop_signal(OpaquePointer(userdata), 0) },
                UnsafeMutableRawPointer(mainloop.loop))
            try PulseError.check(
                pa_stream_connect_upload(stream, pcm.count), "pa_stream_connect_upload", context: context)
            try waitWhile(stream, PA_STREAM_CREATING)
            let written = pcm.withUnsafeBytes { bytes in
                pa_stream_write(stream, bytes.baseAddress, bytes.count, nil, 0, PA_SEEK_RELATIVE)
            }
            try PulseError.check(written, "pa_stream_write", context: context)
            try PulseError.check(pa_stream_finish_upload(stream), "pa_stream_finish_upload", context: context)
            try waitWhile(stream, PA_STREAM_READY)
        }
    }

    /// Lock held: waits until the upload stream leaves `state`; throws unless it went on normally.
    private func waitWhile(_ stream: OpaquePointer, _ state: pa_stream_state_t) throws(PulseError) {
        while pa_stream_get_state(stream) == state && self.state == .ready { mainloop.wait() }
        let now = pa_stream_get_state(stream)
        if now == PA_STREAM_FAILED || self.state != .ready {
            throw PulseError.last(context, "pa_stream_connect_upload")
        }
    }

    /// Plays the cached sample `name` on the default sink at `volume` (a `pa_volume_t`, `PA_VOLUME_NORM`
    /// being 100 %) without waiting for it (`pa_context_play_sample`).
    public func playSample(name: String, volume: UInt32) throws(PulseError) {
        try mainloop.withLock { () throws(PulseError) in
            let op = try PulseError.check(
                pa_context_play_sample(context, name, nil, volume, nil, nil), "pa_context_play_sample",
                context: context)
            pa_operation_unref(op)
        }
    }

    /// Sets a sink input's volume on all `channels` without waiting (`pa_cvolume_set`,
    /// `pa_context_set_sink_input_volume`). `volume` is a `pa_volume_t` (`PA_VOLUME_NORM` is 100 %).
    public func setSinkInputVolume(index: UInt32, channels: Int, volume: UInt32) throws(PulseError) {
        try mainloop.withLock { () throws(PulseError) in
            var cv = pa_cvolume()
            pa_cvolume_set(&cv, UInt32(channels), volume)
            let op = try PulseError.check(
                pa_context_set_sink_input_volume(context, index, &cv, nil, nil), "pa_context_set_sink_input_volume",
                context: context)
            pa_operation_unref(op)
        }
    }
}
