import CFLAC

/// One libFLAC stream decoder reading one file (`FLAC__StreamDecoder`): native FLAC or Ogg FLAC.
///
/// `init` acquires the decoder and reads the metadata (`FLAC__stream_decoder_new`, `…_init_file` or
/// `…_init_ogg_file`, `…_process_until_end_of_metadata`), `deinit` releases it (`…_finish`, `…_delete`).
/// Decoded frames reach `onBlock` from inside `processSingle()` and `seek(toSample:)`; damage is
/// counted (`streamErrors`) and skipped by libFLAC, which resyncs at the next frame.
///
/// Thread rules: one thread at a time (libFLAC decoders are not thread-safe); not `Sendable`.
public final class FLACStreamDecoder {
    private let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
    /// Receives each decoded frame; set before decoding.
    public var onBlock: (FLACBlock) -> Void = { _ in }
    /// STREAMINFO, read at `init`.
    public private(set) var info: FLACStreamInfo?
    /// Stream errors libFLAC reported and skipped past (lost sync, bad headers, CRC mismatches).
    public private(set) var streamErrors = 0
    /// The latest of them, for a log line.
    public private(set) var lastStreamError: String?

    /// Opens the file named by `path` (raw bytes, no NUL) as native FLAC or, with `ogg`, as Ogg FLAC, and
    /// reads up to the first audio frame. MD5 checking stays off (a player cannot act on it mid-track).
    public init(path: [UInt8], ogg: Bool = false) throws(FLACError) {
        guard let d = FLAC__stream_decoder_new() else {
            throw FLACError(operation: "FLAC__stream_decoder_new", message: "out of memory")
        }
        decoder = d
        let me = Unmanaged.passUnretained(self).toOpaque()
        let status = (path + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { name in
                ogg
                    ? FLAC__stream_decoder_init_ogg_file(
                        d, name.baseAddress, flacWrite, flacMetadata, flacError, me)
                    : FLAC__stream_decoder_init_file(d, name.baseAddress, flacWrite, flacMetadata, flacError, me)
            }
        }
        // From here on `deinit` releases the decoder when `init` throws (every property is set).
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
            throw FLACError(
                operation: ogg ? "FLAC__stream_decoder_init_ogg_file" : "FLAC__stream_decoder_init_file",
                message: FLACError.initText(status))
        }
        try FLACError.check(
            FLAC__stream_decoder_process_until_end_of_metadata(d), "FLAC__stream_decoder_process_until_end_of_metadata",
            decoder: d)
        guard info != nil else {
            throw FLACError(operation: "FLAC__stream_decoder_process_until_end_of_metadata", message: "no STREAMINFO")
        }
    }

    deinit {
        FLAC__stream_decoder_finish(decoder)
        FLAC__stream_decoder_delete(decoder)
    }

    /// Decodes the next frame into `onBlock` (`FLAC__stream_decoder_process_single`); false at the end of
    /// the stream. Throws when the decoder cannot go on (a read error, memory).
    public func processSingle() throws(FLACError) -> Bool {
        try FLACError.check(
            FLAC__stream_decoder_process_single(decoder), "FLAC__stream_decoder_process_single", decoder: decoder)
        let state = FLAC__stream_decoder_get_state(decoder)
        switch state {
        case FLAC__STREAM_DECODER_END_OF_STREAM: return false
        case FLAC__STREAM_DECODER_ABORTED, FLAC__STREAM_DECODER_MEMORY_ALLOCATION_ERROR, FLAC__STREAM_DECODER_OGG_ERROR,
            FLAC__STREAM_DECODER_SEEK_ERROR:
            throw FLACError(operation: "FLAC__stream_decoder_process_single", message: FLACError.stateText(decoder))
        default: return true
        }
    }

    /// Moves to `sample` (per channel, from the start) exactly (`FLAC__stream_decoder_seek_absolute`);
    /// the frame holding it is decoded into `onBlock` from `sample` on. After a failed seek the decoder is
    /// flushed so decoding can go on (`FLAC__stream_decoder_flush`).
    public func seek(toSample sample: Int64) throws(FLACError) {
        let ok = FLAC__stream_decoder_seek_absolute(decoder, FLAC__uint64(max(0, sample)))
        guard ok == 0 else { return }
        let message = FLACError.stateText(decoder)
        if FLAC__stream_decoder_get_state(decoder) == FLAC__STREAM_DECODER_SEEK_ERROR {
            FLAC__stream_decoder_flush(decoder)
        }
        throw FLACError(operation: "FLAC__stream_decoder_seek_absolute", message: message)
    }

    fileprivate func received(_ frame: UnsafePointer<FLAC__Frame>, _ buffer: UnsafePointer<UnsafePointer<Int32>?>) {
        let header = frame.pointee.header
        onBlock(
            FLACBlock(
                frames: Int(header.blocksize), channels: Int(header.channels),
                bitsPerSample: Int(header.bits_per_sample), sampleRate: Int(header.sample_rate),
                channel: { buffer[$0]! }))
    }

    fileprivate func received(_ metadata: UnsafePointer<FLAC__StreamMetadata>) {
        guard metadata.pointee.type == FLAC__METADATA_TYPE_STREAMINFO else { return }
        let s = metadata.pointee.data.stream_info
        info = FLACStreamInfo(
            sampleRate: Int(s.sample_rate), channels: Int(s.channels), bitsPerSample: Int(s.bits_per_sample),
            totalSamples: s.total_samples == 0 ? nil : Int64(s.total_samples))
    }

    fileprivate func received(_ status: FLAC__StreamDecoderErrorStatus) {
        streamErrors += 1
        lastStreamError = FLACError.streamText(status)
    }
}

private func flacWrite(
    _: UnsafePointer<FLAC__StreamDecoder>?, frame: UnsafePointer<FLAC__Frame>?,
    buffer: UnsafePointer<UnsafePointer<FLAC__int32>?>?, me: UnsafeMutableRawPointer?
) -> FLAC__StreamDecoderWriteStatus {
    guard let me, let frame, let buffer else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
    Unmanaged<FLACStreamDecoder>.fromOpaque(me).takeUnretainedValue().received(frame, buffer)
    return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
}

private func flacMetadata(
    _: UnsafePointer<FLAC__StreamDecoder>?, metadata: UnsafePointer<FLAC__StreamMetadata>?,
    me: UnsafeMutableRawPointer?
) {
    guard let me, let metadata else { return }
    Unmanaged<FLACStreamDecoder>.fromOpaque(me).takeUnretainedValue().received(metadata)
}

private func flacError(
    _: UnsafePointer<FLAC__StreamDecoder>?, status: FLAC__StreamDecoderErrorStatus, me: UnsafeMutableRawPointer?
) {
    guard let me else { return }
    Unmanaged<FLACStreamDecoder>.fromOpaque(me).takeUnretainedValue().received(status)
}
