import CFFmpeg

/// An error reported by FFmpeg (libavformat, libavcodec): the operation that failed, its `AVERROR` code
/// and FFmpeg's own text.
public struct FFmpegError: Error, CustomStringConvertible, Sendable {
    /// The FFmpeg function that failed (`avformat_open_input`, …).
    public var operation: String
    /// FFmpeg's negative error code (`AVERROR(errno)` or an `AVERROR_…` tag).
    public var code: Int32
    /// `av_strerror`'s text.
    public var message: String

    public init(operation: String, code: Int32, message: String? = nil) {
        self.operation = operation
        self.code = code
        self.message = message ?? Self.text(code)
    }

    public var description: String { "\(operation): \(message)" }

    /// Turns a negative return code into an error (the one checking helper); passes others through.
    @discardableResult
    static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(FFmpegError) -> Int32 {
        guard code < 0 else { return code }
        throw FFmpegError(operation: operation(), code: code)
    }

    /// FFmpeg's text for `code` (`av_strerror`).
    static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        guard av_strerror(code, &buffer, buffer.count) == 0 else { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `AVERROR(EAGAIN)`: the decoder wants input (or output to be taken) first.
    static let again = cw_averror_eagain()
    /// `AVERROR_EOF`: the end of the input, or a drained decoder.
    static let endOfFile = cw_averror_eof()

    /// True for the end of the input (`AVERROR_EOF`).
    public var isEndOfFile: Bool { code == Self.endOfFile }
}

/// `AV_NOPTS_VALUE` as nil: a timestamp FFmpeg does not know.
func timestamp(_ value: Int64) -> Int64? { value == cw_av_nopts_value() ? nil : value }
