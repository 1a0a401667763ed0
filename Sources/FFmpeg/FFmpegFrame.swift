import CFFmpeg

/// How a decoded frame's samples are laid out (`AVSampleFormat`): the type, and whether each channel has
/// its own plane.
public enum FFmpegSampleFormat: Sendable, Equatable {
    case u8, s16, s32, float, double
    case u8Planar, s16Planar, s32Planar, floatPlanar, doublePlanar
    case other(Int32)

    init(_ f: AVSampleFormat) {
        switch f {
        case AV_SAMPLE_FMT_U8: self = .u8
        case AV_SAMPLE_FMT_S16: self = .s16
        case AV_SAMPLE_FMT_S32: self = .s32
        case AV_SAMPLE_FMT_FLT: self = .float
        case AV_SAMPLE_FMT_DBL: self = .double
        case AV_SAMPLE_FMT_U8P: self = .u8Planar
        case AV_SAMPLE_FMT_S16P: self = .s16Planar
        case AV_SAMPLE_FMT_S32P: self = .s32Planar
        case AV_SAMPLE_FMT_FLTP: self = .floatPlanar
        case AV_SAMPLE_FMT_DBLP: self = .doublePlanar
        default: self = .other(f.rawValue)
        }
    }

    /// True when each channel has its own plane.
    public var isPlanar: Bool {
        switch self {
        case .u8Planar, .s16Planar, .s32Planar, .floatPlanar, .doublePlanar: true
        default: false
        }
    }
}

/// One decoded audio frame (`AVFrame`), reused for every decode.
///
/// `init` allocates (`av_frame_alloc`), `deinit` frees (`av_frame_free`). Thread rules: the decoder's
/// thread; the planes are valid until the next `receive` into it.
public final class FFmpegFrame {
    let frame: UnsafeMutablePointer<AVFrame>

    public init() throws(FFmpegError) {
        guard let f = av_frame_alloc() else {
            throw FFmpegError(operation: "av_frame_alloc", code: -12, message: "out of memory")
        }
        frame = f
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&f)
    }

    /// Samples per channel.
    public var samples: Int { Int(frame.pointee.nb_samples) }
    public var channels: Int { Int(frame.pointee.ch_layout.nb_channels) }
    public var sampleRate: Int { Int(frame.pointee.sample_rate) }
    public var format: FFmpegSampleFormat { FFmpegSampleFormat(AVSampleFormat(frame.pointee.format)) }
    /// Presentation time of the first sample in the stream's time base (after the decoder dropped any
    /// samples the container said to skip): the best effort timestamp, else the packet's, nil if neither.
    public var pts: Int64? { timestamp(frame.pointee.best_effort_timestamp) ?? timestamp(frame.pointee.pts) }

    /// Plane `i` (channel `i` of a planar format; the interleaved samples at 0 otherwise).
    public func plane(_ i: Int) -> UnsafeRawPointer { UnsafeRawPointer(frame.pointee.extended_data[i]!) }

    /// Drops the frame's buffers (`av_frame_unref`).
    public func unref() { av_frame_unref(frame) }
}
