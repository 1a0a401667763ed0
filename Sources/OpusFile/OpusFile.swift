import COpusFile

/// One Ogg Opus file open for decoding (`OggOpusFile`), always at 48 kHz.
///
/// `init` opens and reads the headers (`op_open_file`), `deinit` closes (`op_free`). libopusfile drops
/// the pre-skip, trims the end by the last granule position and applies the header's output gain, so a
/// stream decodes to exactly `pcmTotal` samples; `seek(toSample:)` is sample-exact (`op_pcm_seek`).
///
/// Links of one Opus stream (mono or plain stereo) are decoded with `opus_decode_float` on the stream
/// rather than through libopus's multistream wrapper, which runs libopus's CPU-feature probe four times
/// a packet (`cw_opus_direct` in the C shim says why); the samples are the same. Other layouts
/// (surround) are decoded by libopusfile itself.
///
/// Thread rules: one thread at a time; not `Sendable`.
public final class OpusFile {
    private let file: OpaquePointer
    /// The decode callback's state (nil: libopusfile decodes every packet); freed after `file`.
    private let direct: UnsafeMutablePointer<cw_opus_direct>?
    /// Opus always decodes at 48 kHz.
    public static let sampleRate = 48_000

    /// Opens the file named by `path` (raw bytes, no NUL). `decodesDirectly` false leaves every packet
    /// to libopusfile's multistream decode (the reference the direct decode is tested against).
    public init(path: [UInt8], decodesDirectly: Bool = true) throws(OpusError) {
        var error: Int32 = 0
        let f = (path + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { op_open_file($0.baseAddress!, &error) }
        }
        guard let f else { throw OpusError(operation: "op_open_file", code: Int(error < 0 ? error : -1)) }
        file = f
        if decodesDirectly {
            let d = UnsafeMutablePointer<cw_opus_direct>.allocate(capacity: 1)
            d.initialize(to: cw_opus_direct())
            cw_opus_direct_start(f, d)
            direct = d
        } else {
            direct = nil
        }
    }

    deinit {
        op_free(file)
        direct?.deallocate()
    }

    /// Packets decoded so far on a single stream directly, and by libopusfile's multistream decode.
    public var decodedPackets: (direct: Int, multistream: Int) {
        guard let direct else { return (0, 0) }
        return (Int(direct.pointee.direct), Int(direct.pointee.multistreamed))
    }

    /// Channels of a link (`op_channel_count`; -1: the current one).
    public func channels(link: Int = -1) -> Int { Int(op_channel_count(file, Int32(link))) }

    /// Samples per channel of the whole file (`op_pcm_total`), nil when unknown (not seekable).
    public var pcmTotal: Int64? {
        let n = op_pcm_total(file, -1)
        return n < 0 ? nil : n
    }

    /// Decodes interleaved floats into `buffer` (`op_read_float`): returns the samples per channel
    /// written (0 at the end) and the link they came from (its channel count may differ from others').
    /// Throws `OP_HOLE` (a gap: decoding goes on after it), `OP_EBADPACKET`, `OP_EREAD`, …
    public func readFloat(into buffer: UnsafeMutableBufferPointer<Float>) throws(OpusError) -> (frames: Int, link: Int)
    {
        var link: Int32 = 0
        let n = try OpusError.check(
            op_read_float(file, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))), &link), "op_read_float")
        return (Int(n), Int(link))
    }

    /// Moves to `sample` (per channel, 48 kHz) exactly (`op_pcm_seek`).
    public func seek(toSample sample: Int64) throws(OpusError) {
        if let direct { cw_opus_direct_forget(direct) }
        try OpusError.check(op_pcm_seek(file, max(0, sample)), "op_pcm_seek")
    }

    /// The sample the next read starts at (`op_pcm_tell`).
    public var position: Int64 { op_pcm_tell(file) }
}
