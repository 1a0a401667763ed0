/// The read loop the FLAC, Vorbis and Opus decoders share: while their queue of converted PCM is empty and
/// the stream has not ended, one decode step of the library at a time (up to `steps` per read, so a long
/// damaged stretch cannot hold up the audio thread), then the queue's bytes; and the seek that empties
/// the queue and clamps the target to the track. Each decoder says what a step did (`DecoderStep`):
/// audio decoded into its queue, the end, damage skipped, or an error that either ends the track at once
/// (libFLAC's) or counts towards `maxFailures` in a row without output (libvorbisfile's and opusfile's).
///
/// Thread rules: the decoder's, the audio thread only.
struct DecoderLoop {
    /// A run of this many errors without output ends the track as `.failed`.
    static let maxFailures = 32

    /// Library steps per `fill` while the queue is empty.
    let steps: Int
    /// The stream's end was met (reset by a seek).
    private(set) var ended = false
    /// Stretches of damage skipped (holes, links of another format).
    private(set) var skipped = 0
    private var failures = 0

    init(steps: Int) { self.steps = steps }

    /// Runs up to `steps` (or `limit`) library steps while `isEmpty()` says the queue is empty; the reason
    /// the track cannot go on, or nil. `step` fills the decoder's queue itself (its queue is not in here,
    /// so a library callback inside a step may append to it).
    mutating func fill(limit: Int? = nil, isEmpty: () -> Bool, step: () -> DecoderStep) -> String? {
        for _ in 0..<(limit ?? steps) where isEmpty() && !ended {
            switch step() {
            case .decoded: failures = 0
            case .ended: ended = true
            case .skipped: skipped += 1
            case .error(let reason, let fatal):
                failures += 1
                if fatal || failures >= Self.maxFailures { return reason }
            }
        }
        return nil
    }

    /// `fill`, then what the queue holds into `buffer`: the end of the track once it has ended and the
    /// queue is drained.
    mutating func read(
        into buffer: UnsafeMutableRawBufferPointer, path: String, isEmpty: () -> Bool,
        take: (UnsafeMutableRawBufferPointer) -> Int, step: () -> DecoderStep
    ) -> DecodedChunk {
        if let failure = fill(isEmpty: isEmpty, step: step) { return .failed("\(path): \(failure)") }
        let bytes = take(buffer)
        return ended && isEmpty() ? .end(bytes: bytes) : .data(bytes: bytes)
    }

    /// A seek to `sample` (clamped at 0): at or past `length` the track has ended, else `seek` moves the
    /// library. The caller empties its queue first (a library may decode the target frame into it).
    mutating func seek<E: Error>(
        toSample sample: Int64, length: Int64?, path: String, _ seek: (Int64) throws(E) -> Void
    ) throws(PlaybackError) {
        ended = false
        let target = max(0, sample)
        if let length, target >= length {
            ended = true
            return
        }
        do { try seek(target) } catch { throw PlaybackError("seek in \(path) failed (\(error))") }
    }
}

/// What one library step of a `DecoderLoop` did.
enum DecoderStep {
    /// Audio was decoded into the queue (or a frame was processed).
    case decoded
    /// The stream ended.
    case ended
    /// Damage was skipped (a hole, a chained link of another format).
    case skipped
    /// The library failed: `fatal` ends the track now, else it counts towards `DecoderLoop.maxFailures`.
    case error(String, fatal: Bool)
}
