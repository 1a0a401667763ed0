import CPulse

/// A PCM format the way the server is told about it: signed 16-bit little-endian interleaved at a rate.
///
/// Thread rules: a value type, `Sendable`.
public struct PulseSampleSpec: Hashable, Sendable {
    public var rate: Int
    public var channels: Int

    public init(rate: Int, channels: Int) {
        precondition(rate > 0 && (1...Int(PA_CHANNELS_MAX)).contains(channels), "invalid sample spec")
        self.rate = rate
        self.channels = channels
    }

    /// Bytes per frame (one sample of every channel).
    public var frameSize: Int { 2 * channels }

    /// Bytes per second of audio.
    public var bytesPerSecond: Int { frameSize * rate }

    /// The C struct (`PA_SAMPLE_S16LE`: Swift cannot see the `PA_SAMPLE_S16NE` macro; every target is
    /// little-endian).
    var cValue: pa_sample_spec {
        pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(rate), channels: UInt8(channels))
    }

    /// Bytes for `milliseconds` of audio, whole frames (`pa_usec_to_bytes`).
    public func bytes(milliseconds: Int) -> Int {
        var spec = cValue
        return pa_usec_to_bytes(UInt64(milliseconds) * 1000, &spec)
    }
}
