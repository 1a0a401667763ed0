import VorbisFile

/// The `vorbis` decoder: Ogg Vorbis through libvorbisfile, to exactly the stream's sample count
/// (libvorbisfile trims by the first and last granule positions), floats converted to 16 bits with
/// Sound Check's gain.
///
/// A chained file keeps the first link's format: links at another rate or channel count are skipped
/// (counted in `skippedDamage`), as are holes in the data (`OV_HOLE`); a run of other errors without
/// output ends the track as `.failed`. Seeking is exact (`ov_pcm_seek`).
///
/// Thread rules: audio thread only (see `TrackDecoder`).
final class VorbisDecoder: TrackDecoder {
    let track: AudioTrack
    let format: PCMFormat
    let length: Int64?
    private let file: VorbisFile
    private let source: (sampleRate: Int, channels: Int)
    private var queue: PCMQueue
    private var gain: Float
    /// One library read per `read` call; a run of `DecoderLoop.maxFailures` errors without output ends it.
    private var loop = DecoderLoop(steps: 1)
    var skippedDamage: Int { loop.skipped }
    /// Samples per channel asked of libvorbisfile per read.
    private static let chunk = 4096

    init(_ track: AudioTrack, soundCheck: Bool) throws(PlaybackError) {
        self.track = track
        do { file = try VorbisFile(path: track.pathBytes) } catch {
            throw PlaybackError("\(track.path) is not playable Ogg Vorbis (\(error))")
        }
        guard let f = file.format(), f.sampleRate > 0, f.channels > 0 else {
            throw PlaybackError("\(track.path) is not playable Ogg Vorbis (no stream format)")
        }
        source = f
        length = file.pcmTotal
        queue = PCMQueue(sourceChannels: f.channels, order: .vorbis)
        format = PCMFormat(sampleRate: f.sampleRate, channels: queue.channels)
        gain = soundCheck ? Float(track.replayGain?.scale ?? 1) : 1
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> DecodedChunk {
        loop.read(
            into: buffer, path: track.path, isEmpty: { queue.isEmpty }, take: { queue.take(into: $0) }, step: step)
    }

    /// One `ov_read_float` into the queue: a link at another rate or channel count, or a hole (`OV_HOLE`),
    /// is skipped damage.
    private func step() -> DecoderStep {
        do {
            let (pcm, frames, link) = try file.readFloat(maxFrames: Self.chunk)
            guard frames > 0 else { return .ended }
            guard let pcm, let f = file.format(link: link), f == source else { return .skipped }
            let gain = self.gain
            let planes = (0..<source.channels).map { UnsafePointer(pcm[$0]!) }
            queue.append(frames: frames, planes: planes) { S16.from($0, gain: gain) }
            return .decoded
        } catch {
            return error.code == Int(-3) ? .skipped : .error("\(error)", fatal: false)
        }
    }

    func seek(toSample sample: Int64) throws(PlaybackError) {
        queue.removeAll()
        let file = self.file
        try loop.seek(toSample: sample, length: length, path: track.path) { target throws(VorbisError) in
            try file.seek(toSample: target)
        }
    }

    func applyReplayGain(_ on: Bool) {
        gain = on ? Float(track.replayGain?.scale ?? 1) : 1
    }
}
