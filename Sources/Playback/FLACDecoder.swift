import FLAC

/// The `flac` decoder: native FLAC and Ogg FLAC through libFLAC, bit-exact, to exactly the stream's
/// sample count; 24-bit and 32-bit streams are rounded to 16 bits (`S16`).
///
/// libFLAC hands out whole frames (up to 65,535 samples per channel) through a callback; they wait in a
/// `PCMQueue` for the player's reads. Damage is skipped by libFLAC's resync (counted in
/// `skippedDamage`); frames whose header contradicts STREAMINFO (another rate or channel count) are
/// dropped. Seeking is exact (`FLAC__stream_decoder_seek_absolute`).
///
/// Thread rules: audio thread only (see `TrackDecoder`).
final class FLACDecoder: TrackDecoder {
    let track: AudioTrack
    let format: PCMFormat
    let length: Int64?
    private let flac: FLACStreamDecoder
    private let info: FLACStreamInfo
    private var queue: PCMQueue
    private var gain: Float
    private var loop = DecoderLoop(steps: 8)
    private var droppedFrames = 0

    var skippedDamage: Int { flac.streamErrors + droppedFrames }

    /// Opens `track` (Ogg FLAC with `ogg`) and decodes its first frame.
    init(_ track: AudioTrack, soundCheck: Bool, ogg: Bool = false) throws(PlaybackError) {
        self.track = track
        do {
            flac = try FLACStreamDecoder(path: track.pathBytes, ogg: ogg)
        } catch {
            throw PlaybackError("\(track.path) is not playable FLAC (\(error))")
        }
        guard let info = flac.info, info.sampleRate > 0, info.channels > 0, (4...32).contains(info.bitsPerSample)
        else { throw PlaybackError("\(track.path) is not playable FLAC (invalid STREAMINFO)") }
        self.info = info
        length = info.totalSamples
        queue = PCMQueue(sourceChannels: info.channels, order: .wave)
        format = PCMFormat(sampleRate: info.sampleRate, channels: queue.channels)
        gain = soundCheck ? Float(track.replayGain?.scale ?? 1) : 1
        flac.onBlock = { [unowned self] in self.append($0) }
        // The first frame now: a file with a good header and no decodable audio fails here.
        if let failure = loop.fill(limit: 64, isEmpty: { queue.isEmpty }, step: step) {
            throw PlaybackError("\(track.path) is not playable FLAC (\(failure))")
        }
        if queue.isEmpty && (length ?? 1) > 0 {
            throw PlaybackError("\(track.path) is not playable FLAC (no audio frame decodes)")
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> DecodedChunk {
        // A few frames at most per call (the loop's 8 steps): a long damaged stretch must not hold up the
        // audio thread.
        loop.read(
            into: buffer, path: track.path, isEmpty: { queue.isEmpty }, take: { queue.take(into: $0) }, step: step)
    }

    /// One frame through libFLAC (its callback appends it to the queue); any error ends the track.
    private func step() -> DecoderStep {
        do { return try flac.processSingle() ? .decoded : .ended } catch {
            return .error("\(error)", fatal: true)
        }
    }

    func seek(toSample sample: Int64) throws(PlaybackError) {
        queue.removeAll()
        let flac = self.flac
        try loop.seek(toSample: sample, length: length, path: track.path) { target throws(FLACError) in
            try flac.seek(toSample: target)
        }
    }

    func applyReplayGain(_ on: Bool) {
        gain = on ? Float(track.replayGain?.scale ?? 1) : 1
    }

    /// A decoded frame, converted into the queue (dropped when it contradicts STREAMINFO: damage).
    private func append(_ block: FLACBlock) {
        guard block.channels == info.channels, block.sampleRate == info.sampleRate || block.sampleRate == 0 else {
            droppedFrames += 1
            return
        }
        let bits = block.bitsPerSample
        let gain = self.gain
        let planes = (0..<block.channels).map { block.channel($0) }
        queue.append(frames: block.frames, planes: planes) { S16.from($0, bits: bits, gain: gain) }
    }
}
