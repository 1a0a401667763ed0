import CSonic

/// A libsonic time-scaler: changes the speed of interleaved signed 16-bit PCM and keeps its pitch
/// (pitch-synchronous overlap-add, the speech speed-up Android's players use).
///
/// Owns one `sonicStream` (`sonicCreateStream` in `init`, `sonicDestroyStream` in `deinit`). Samples go in
/// with `write`, come out with `read` about 1/`speed` as many frames later (libsonic holds up to two
/// of its longest pitch periods, ~30 ms, to find the period). Thread rules: one thread at a time (the
/// audio thread); nothing here is shared.
public final class SonicStream {
    private let stream: OpaquePointer
    /// Interleaved channels per frame.
    public let channels: Int

    /// Creates a stream for `sampleRate` Hz and `channels` at `speed` (1 = unchanged).
    public init(sampleRate: Int, channels: Int, speed: Double) throws(SonicError) {
        guard let s = sonicCreateStream(Int32(sampleRate), Int32(channels)) else {
            throw SonicError(operation: "sonicCreateStream")
        }
        stream = s
        self.channels = channels
        sonicSetSpeed(s, Float(speed))
    }

    deinit { sonicDestroyStream(stream) }

    /// The speed factor (`sonicGetSpeed`/`sonicSetSpeed`); a change applies to the samples still inside,
    /// smoothly (no restart). At 1 libsonic copies its input through unchanged.
    public var speed: Double {
        get { Double(sonicGetSpeed(stream)) }
        set { sonicSetSpeed(stream, Float(newValue)) }
    }

    /// Feeds interleaved frames (`sonicWriteShortToStream`); `samples.count` is a multiple of `channels`.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(SonicError) {
        guard let base = samples.baseAddress, samples.count >= channels else { return }
        let ok = sonicWriteShortToStream(stream, UnsafeMutablePointer(mutating: base), Int32(samples.count / channels))
        try SonicError.check(ok, "sonicWriteShortToStream")
    }

    /// Takes up to `buffer.count / channels` frames of output (`sonicReadShortFromStream`); returns the
    /// frames read, 0 when none is ready.
    public func read(into buffer: UnsafeMutableBufferPointer<Int16>) -> Int {
        guard let base = buffer.baseAddress, buffer.count >= channels else { return 0 }
        return Int(sonicReadShortFromStream(stream, base, Int32(buffer.count / channels)))
    }

    /// Makes what is still inside come out (`sonicFlushStream`): the end of the input, scaled, with no
    /// padding in the output. For the end of the audio to be scaled (a flush mid-speech may distort it).
    public func flush() throws(SonicError) {
        try SonicError.check(sonicFlushStream(stream), "sonicFlushStream")
    }

    /// Frames ready to be read (`sonicSamplesAvailable`).
    public var framesAvailable: Int { Int(sonicSamplesAvailable(stream)) }
}
