import OpusFile

/// The `opus` decoder: Ogg Opus through libopusfile at 48 kHz, to exactly the stream's sample count
/// (libopusfile drops the pre-skip and trims the end by the last granule position; it also applies the
/// header's output gain, as the Opus spec asks). Floats are converted to 16 bits with Sound Check's gain.
///
/// A chained file keeps the first link's channel count: links with another are skipped (counted in
/// `skippedDamage`), as are holes (`OP_HOLE`); a run of other errors without output ends the track as
/// `.failed`. Seeking is exact (`op_pcm_seek`).
///
/// Thread rules: audio thread only (see `TrackDecoder`).
final class OpusDecoder: TrackDecoder {
    let track: AudioTrack
    let format: PCMFormat
    let length: Int64?
    private let file: OpusFile
    private let sourceChannels: Int
    private var queue: PCMQueue
    /// Interleaved floats from libopusfile: 120 ms (its largest packet) of every channel.
    private var floats: [Float]
    private var gain: Float
    private var ended = false
    private var failures = 0
    private(set) var skippedDamage = 0
    static let maxFailures = 32

    init(_ track: AudioTrack, soundCheck: Bool) throws(PlaybackError) {
        self.track = track
        do { file = try OpusFile(path: track.pathBytes) } catch {
            throw PlaybackError("\(track.path) is not playable Ogg Opus (\(error))")
        }
        sourceChannels = file.channels()
        guard sourceChannels > 0 else { throw PlaybackError("\(track.path) is not playable Ogg Opus (no channels)") }
        length = file.pcmTotal
        queue = PCMQueue(sourceChannels: sourceChannels, order: .vorbis)
        format = PCMFormat(sampleRate: OpusFile.sampleRate, channels: queue.channels)
        floats = [Float](repeating: 0, count: 5760 * sourceChannels)
        gain = soundCheck ? Float(track.replayGain?.scale ?? 1) : 1
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> DecodedChunk {
        if queue.isEmpty && !ended {
            do {
                let file = self.file
                let (frames, link) = try floats.withUnsafeMutableBufferPointer { b throws(OpusError) in
                    try file.readFloat(into: b)
                }
                if frames == 0 {
                    ended = true
                } else if file.channels(link: link) == sourceChannels {
                    failures = 0
                    let gain = self.gain, ch = sourceChannels
                    floats.withUnsafeBufferPointer { pcm in
                        queue.append(frames: frames) { i, c in S16.from(pcm[i * ch + c], gain: gain) }
                    }
                } else {
                    skippedDamage += 1
                }
            } catch {
                if error.isHole {
                    skippedDamage += 1
                } else {
                    failures += 1
                    if failures >= Self.maxFailures { return .failed("\(track.path): \(error)") }
                }
            }
        }
        let bytes = queue.take(into: buffer)
        return ended && queue.isEmpty ? .end(bytes: bytes) : .data(bytes: bytes)
    }

    func seek(toSample sample: Int64) throws(PlaybackError) {
        queue.removeAll()
        ended = false
        let target = max(0, sample)
        if let length, target >= length {
            ended = true
            return
        }
        do { try file.seek(toSample: target) } catch {
            throw PlaybackError("seek in \(track.path) failed (\(error))")
        }
    }

    func applyReplayGain(_ on: Bool) {
        gain = on ? Float(track.replayGain?.scale ?? 1) : 1
    }
}
