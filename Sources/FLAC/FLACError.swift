import CFLAC

/// An error reported by libFLAC's stream decoder: the operation that failed and libFLAC's own reason.
public struct FLACError: Error, CustomStringConvertible, Sendable {
    /// The libFLAC function that failed (`FLAC__stream_decoder_init_file`, …).
    public var operation: String
    /// Why, in libFLAC's words (its state or status name) or ours where it has none.
    public var message: String

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    public var description: String { "\(operation): \(message)" }

    /// Turns a `FLAC__bool` result into an error carrying the decoder's state when it is false (the one
    /// checking helper for calls that report through the decoder's state).
    static func check(
        _ ok: FLAC__bool, _ operation: @autoclosure () -> String, decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
    ) throws(FLACError) {
        guard ok == 0 else { return }
        throw FLACError(operation: operation(), message: stateText(decoder))
    }

    /// The decoder's state as libFLAC names it (`FLAC__stream_decoder_get_resolved_state_string`).
    static func stateText(_ decoder: UnsafeMutablePointer<FLAC__StreamDecoder>) -> String {
        FLAC__stream_decoder_get_resolved_state_string(decoder).map { String(cString: $0) } ?? "unknown state"
    }

    /// What an init status means (`FLAC__StreamDecoderInitStatus`).
    static func initText(_ status: FLAC__StreamDecoderInitStatus) -> String {
        switch status {
        case FLAC__STREAM_DECODER_INIT_STATUS_UNSUPPORTED_CONTAINER: "this libFLAC cannot read Ogg FLAC"
        case FLAC__STREAM_DECODER_INIT_STATUS_MEMORY_ALLOCATION_ERROR: "out of memory"
        case FLAC__STREAM_DECODER_INIT_STATUS_ERROR_OPENING_FILE: "cannot open the file"
        case FLAC__STREAM_DECODER_INIT_STATUS_ALREADY_INITIALIZED: "decoder already initialized"
        default: "init status \(status.rawValue)"
        }
    }

    /// What a decoding error callback's status means (`FLAC__StreamDecoderErrorStatus`).
    static func streamText(_ status: FLAC__StreamDecoderErrorStatus) -> String {
        switch status {
        case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: "lost sync (damaged data skipped)"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: "bad frame header"
        case FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH: "frame CRC mismatch"
        case FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM: "unparseable stream"
        default: "stream error \(status.rawValue)"
        }
    }
}
