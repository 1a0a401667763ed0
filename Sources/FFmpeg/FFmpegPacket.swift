import CFFmpeg

/// One compressed packet as libavformat reads it (`AVPacket`), reused for every read.
///
/// `init` allocates (`av_packet_alloc`), `deinit` frees (`av_packet_free`). Thread rules: the thread of
/// the `FFmpegInput` that fills it; not `Sendable`.
public final class FFmpegPacket {
    let packet: UnsafeMutablePointer<AVPacket>

    public init() throws(FFmpegError) {
        guard let p = av_packet_alloc() else {
            throw FFmpegError(operation: "av_packet_alloc", code: -12, message: "out of memory")
        }
        packet = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
    }

    /// The stream the packet belongs to.
    public var streamIndex: Int { Int(packet.pointee.stream_index) }
    /// Presentation time in the stream's time base, nil when unknown.
    public var pts: Int64? { timestamp(packet.pointee.pts) }

    /// Drops the payload (`av_packet_unref`).
    public func unref() { av_packet_unref(packet) }
}
