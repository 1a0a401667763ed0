import Foundation

/// One open track decoding to the pipeline's PCM: what the audio thread needs of any format's decoder.
///
/// Output is signed 16-bit interleaved (`PCMFormat`) at the track's own rate, with its own channel
/// count (more than two are mixed down to stereo: the outputs pass no channel map). Sources with more
/// bits (24-bit FLAC, ALAC, WAV, float) are rounded to 16 bits. Each decoder yields exactly the file's
/// samples where its format says how many there are (gapless: no encoder delay, no padding).
///
/// Sound Check: with `applyReplayGain(true)` the track's `replayGain.scale` is applied to what is decoded
/// from then on, in the conversion to 16 bits (clipped there), or natively where the library has it.
///
/// Errors: a file that cannot be opened as its format throws `PlaybackError` from the decoder's `init`
/// (which reads up to the first audio, so a bad file fails before it is due); damage mid-file is
/// skipped where the library can, and a run of failures without output ends the track as `.failed`.
///
/// Thread rules: a decoder is made, used and released on the audio thread only (the C libraries' handles
/// belong to one thread at a time); not `Sendable`.
protocol TrackDecoder: AnyObject {
    /// The track this decoder plays.
    var track: AudioTrack { get }
    /// The PCM `read` yields, fixed for the track's life.
    var format: PCMFormat { get }
    /// Decodes up to `buffer.count` bytes (whole frames) into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> DecodedChunk
    /// Moves to `sample` (per channel, from the first audible sample), clamped to the track; the next
    /// `read` starts there. Exact where the library is.
    func seek(toSample sample: Int64) throws(PlaybackError)
    /// Applies the track's ReplayGain (`on`) or unity gain to what is decoded from now on.
    func applyReplayGain(_ on: Bool)
    /// Length in samples per channel when known.
    var length: Int64? { get }
    /// Stretches of damage skipped so far (for a log line when the track ends).
    var skippedDamage: Int { get }
}

/// What one `TrackDecoder.read` produced.
enum DecodedChunk: Equatable {
    /// `bytes` of PCM in the track's format (0 when a read only got past damage).
    case data(bytes: Int)
    /// `bytes` of PCM, then the end of the track.
    case end(bytes: Int)
    /// The file cannot be decoded any further.
    case failed(String)
}

/// A playback failure worth a log line: the file, and what went wrong.
public struct PlaybackError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
