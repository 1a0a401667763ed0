import CFFmpeg

/// What an audio stream of an `FFmpegInput` is, from its codec parameters and the container.
public struct FFmpegStreamInfo: Sendable, Equatable {
    public var index: Int
    /// The codec's short name (`aac`, `alac`, …, `avcodec_get_name`).
    public var codec: String
    public var sampleRate: Int
    public var channels: Int
    /// The stream's time base as a fraction of a second.
    public var timeBase: (num: Int32, den: Int32)
    /// The stream's duration in its time base as the container states it, nil when unknown or only
    /// estimated from the bitrate.
    public var duration: Int64?

    public static func == (a: Self, b: Self) -> Bool {
        a.index == b.index && a.codec == b.codec && a.sampleRate == b.sampleRate && a.channels == b.channels
            && a.timeBase == b.timeBase && a.duration == b.duration
    }
}

/// One file opened by libavformat (`AVFormatContext`): the container's demuxer and its best audio stream.
///
/// `init` opens and probes (`avformat_open_input`, `avformat_find_stream_info`, `av_find_best_stream`),
/// `deinit` closes (`avformat_close_input`). Only the `file` protocol is allowed, so a name such as
/// `http:…` or `concat:…` is a file name and nothing else.
///
/// Thread rules: one thread at a time; not `Sendable`.
public final class FFmpegInput {
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The audio stream decoded.
    public let audio: FFmpegStreamInfo
    /// The demuxer's short name (`mov,mp4,m4a,3gp,3g2,mj2`, `aac`, …).
    public let formatName: String

    /// Opens the file named by `path` (raw bytes, no NUL) with demuxer `options` (`-advanced_editlist 0`,
    /// …; see libavformat's format options) and picks its best audio stream.
    public init(path: [UInt8], options: [String: String] = [:]) throws(FFmpegError) {
        FFmpegLibrary.configured
        var dict: OpaquePointer?
        av_dict_set(&dict, "protocol_whitelist", "file", 0)
        for (key, value) in options { av_dict_set(&dict, key, value, 0) }
        defer { av_dict_free(&dict) }
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        let url = Array("file:".utf8) + path + [0]
        let opened = url.withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { avformat_open_input(&ctx, $0.baseAddress, nil, &dict) }
        }
        try FFmpegError.check(opened, "avformat_open_input")
        guard let ctx else { throw FFmpegError(operation: "avformat_open_input", code: -1) }
        do {
            try FFmpegError.check(avformat_find_stream_info(ctx, nil), "avformat_find_stream_info")
            let index = try FFmpegError.check(
                av_find_best_stream(ctx, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0), "av_find_best_stream")
            let stream = ctx.pointee.streams[Int(index)]!.pointee
            let par = stream.codecpar.pointee
            let estimated = ctx.pointee.duration_estimation_method == AVFMT_DURATION_FROM_BITRATE
            audio = FFmpegStreamInfo(
                index: Int(index), codec: String(cString: avcodec_get_name(par.codec_id)),
                sampleRate: Int(par.sample_rate), channels: Int(par.ch_layout.nb_channels),
                timeBase: (stream.time_base.num, stream.time_base.den),
                duration: estimated || stream.duration <= 0 ? nil : timestamp(stream.duration))
            formatName = ctx.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
        } catch {
            var c: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&c)
            throw error
        }
        context = ctx
    }

    deinit {
        var c: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&c)
    }

    /// A container-level tag (`av_dict_get` on the file's metadata, e.g. `iTunSMPB`), nil when absent.
    public func tag(_ key: String) -> String? {
        guard let entry = av_dict_get(context.pointee.metadata, key, nil, 0), let value = entry.pointee.value else {
            return nil
        }
        return String(cString: value)
    }

    /// Reads the next packet of any stream into `packet` (`av_read_frame`); false at the end of the file.
    /// Throws on a read error or damage libavformat cannot get past.
    public func read(into packet: FFmpegPacket) throws(FFmpegError) -> Bool {
        packet.unref()
        let result = av_read_frame(context, packet.packet)
        if result == FFmpegError.endOfFile { return false }
        try FFmpegError.check(result, "av_read_frame")
        return true
    }

    /// Moves the audio stream to the last packet at or before `timestamp` (in the stream's time base;
    /// `av_seek_frame` with `AVSEEK_FLAG_BACKWARD`). Decoding from there must drop up to the target.
    public func seek(toTimestamp timestamp: Int64) throws(FFmpegError) {
        try FFmpegError.check(
            av_seek_frame(context, Int32(audio.index), timestamp, AVSEEK_FLAG_BACKWARD), "av_seek_frame")
    }

    /// The audio stream's codec parameters, for `FFmpegAudioDecoder`.
    var audioParameters: UnsafeMutablePointer<AVCodecParameters> {
        context.pointee.streams[audio.index]!.pointee.codecpar
    }
}
