import CFFmpeg

/// libavcodec's decoder for the audio stream of an `FFmpegInput` (`AVCodecContext`).
///
/// `init` acquires and opens it (`avcodec_find_decoder`, `avcodec_alloc_context3`,
/// `avcodec_parameters_to_context`, `avcodec_open2`), `deinit` frees it (`avcodec_free_context`).
/// Samples the container marks to skip (an MP4 edit list's encoder delay, as packet side data) are
/// dropped by libavcodec itself.
///
/// Thread rules: one thread at a time; not `Sendable`.
public final class FFmpegAudioDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>

    /// What `receive(into:)` found.
    public enum Output: Equatable {
        /// A frame was decoded.
        case frame
        /// The decoder needs another packet first.
        case needsInput
        /// The decoder is drained (after `sendEnd()`).
        case end
    }

    public init(for input: FFmpegInput) throws(FFmpegError) {
        let par = input.audioParameters
        guard let codec = avcodec_find_decoder(par.pointee.codec_id) else {
            throw FFmpegError(
                operation: "avcodec_find_decoder", code: -1,
                message: "no decoder for \(String(cString: avcodec_get_name(par.pointee.codec_id)))")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw FFmpegError(operation: "avcodec_alloc_context3", code: -12, message: "out of memory")
        }
        do {
            try FFmpegError.check(avcodec_parameters_to_context(ctx, par), "avcodec_parameters_to_context")
            try FFmpegError.check(avcodec_open2(ctx, codec, nil), "avcodec_open2")
        } catch {
            var c: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&c)
            throw error
        }
        context = ctx
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    /// Hands `packet` to the decoder (`avcodec_send_packet`); false when it must give out frames first
    /// (`AVERROR(EAGAIN)`: call `receive` and send the same packet again). Throws for a packet it rejects
    /// (damage: the caller may skip it and go on).
    public func send(_ packet: FFmpegPacket) throws(FFmpegError) -> Bool {
        let result = avcodec_send_packet(context, packet.packet)
        if result == FFmpegError.again { return false }
        try FFmpegError.check(result, "avcodec_send_packet")
        return true
    }

    /// Tells the decoder there are no more packets (`avcodec_send_packet` with none): it gives out what it
    /// holds, then `.end`.
    public func sendEnd() {
        _ = avcodec_send_packet(context, nil)
    }

    /// Takes the next decoded frame into `frame` (`avcodec_receive_frame`).
    public func receive(into frame: FFmpegFrame) throws(FFmpegError) -> Output {
        let result = avcodec_receive_frame(context, frame.frame)
        if result == FFmpegError.again { return .needsInput }
        if result == FFmpegError.endOfFile { return .end }
        try FFmpegError.check(result, "avcodec_receive_frame")
        return .frame
    }

    /// Forgets buffered state after a seek (`avcodec_flush_buffers`); also leaves the drained state.
    public func flush() { avcodec_flush_buffers(context) }
}
