/// One decoded FLAC frame as libFLAC's write callback hands it over: planar 32-bit samples holding
/// `bitsPerSample` significant bits, valid only during the callback.
///
/// Thread rules: the decoder's thread, inside `FLACStreamDecoder.processSingle()` or `seek(toSample:)`.
public struct FLACBlock {
    /// Samples per channel in this block (after a seek, only those from the target on).
    public let frames: Int
    public let channels: Int
    public let bitsPerSample: Int
    public let sampleRate: Int
    /// Channel `i`'s samples, `frames` of them, right-justified and sign-extended.
    public let channel: (Int) -> UnsafePointer<Int32>
}

/// The stream's facts from its STREAMINFO block.
public struct FLACStreamInfo: Equatable, Sendable {
    public var sampleRate: Int
    public var channels: Int
    public var bitsPerSample: Int
    /// Samples per channel; nil when the encoder did not know (0 in STREAMINFO, e.g. a piped encode).
    public var totalSamples: Int64?
}
