import CFFmpeg

/// FFmpeg's process-wide settings, made once before the first file opens.
///
/// Thread rules: any thread (a `static let` runs its initializer once, thread-safely).
enum FFmpegLibrary {
    /// Keeps libavformat and libavcodec from writing to stderr (`av_log_set_level(AV_LOG_QUIET)`): every
    /// failure reaches the caller as an `FFmpegError`, and the service's log is the place for it.
    static let configured: Void = av_log_set_level(AV_LOG_QUIET)
}
