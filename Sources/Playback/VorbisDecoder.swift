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
    private var ended = false
    private var failures = 0
    private(set) var skippedDamage = 0
    static let maxFailures = 32
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
        if queue.isEmpty && !ended {
            do {
                let (pcm, frames, link) = try file.readFloat(maxFrames: Self.chunk)
                if frames == 0 {
                    ended = true
                } else if let pcm, let f = file.format(link: link), f == source {
                    failures = 0
                    let gain = self.gain
                    queue.append(frames: frames) { i, c in S16.from(pcm[c]![i], gain: gain) }
                } else {
                    skippedDamage += 1
                }
            } catch {
                if error.code == Int(-3) {
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
