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
    /// One library read per `read` call; a run of `DecoderLoop.maxFailures` errors without output ends it.
    private var loop = DecoderLoop(steps: 1)
    var skippedDamage: Int { loop.skipped }

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
        loop.read(
            into: buffer, path: track.path, isEmpty: { queue.isEmpty }, take: { queue.take(into: $0) }, step: step)
    }

    /// One `op_read_float` into the queue: a link of another channel count, or a hole (`OP_HOLE`), is
    /// skipped damage.
    private func step() -> DecoderStep {
        do {
            let file = self.file
            let (frames, link) = try floats.withUnsafeMutableBufferPointer { b throws(OpusError) in
                try file.readFloat(into: b)
            }
            guard frames > 0 else { return .ended }
            guard file.channels(link: link) == sourceChannels else { return .skipped }
            let gain = self.gain
            floats.withUnsafeBufferPointer { pcm in
                queue.append(frames: frames, interleaved: pcm.baseAddress!) { S16.from($0, gain: gain) }
            }
            return .decoded
        } catch {
            return error.isHole ? .skipped : .error("\(error)", fatal: false)
        }
    }

    func seek(toSample sample: Int64) throws(PlaybackError) {
        queue.removeAll()
        let file = self.file
        try loop.seek(toSample: sample, length: length, path: track.path) { target throws(OpusError) in
            try file.seek(toSample: target)
        }
    }

    func applyReplayGain(_ on: Bool) {
        gain = on ? Float(track.replayGain?.scale ?? 1) : 1
    }
}
