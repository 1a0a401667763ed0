import FFmpeg

/// The `ffmpeg` decoder: MP4 (AAC, ALAC) and raw ADTS AAC through libavformat and libavcodec, to exactly
/// the file's sample count where the container says it.
///
/// Gapless: the file is opened with `advanced_editlist` off, so libavformat keeps the sample table's
/// durations as written and marks the edit list's start (the encoder delay) for libavcodec to drop
/// (skip-samples side data). The track ends where the sample table ends, counted from the first audible
/// sample (`duration + first pts`); with an iTunes `iTunSMPB` tag, its delay and sample count rule
/// instead (see `FFmpegTiming`). Frames are placed by their timestamps and cut to that window, which is
/// also how a seek lands exactly: libavformat goes to a packet a little before the target (AAC needs the
/// frame before to overlap), and what is decoded before the target is dropped.
///
/// Raw ADTS has no length or delay to go by: it plays as decoded (its priming included).
///
/// Thread rules: audio thread only (see `TrackDecoder`).
final class FFmpegDecoder: TrackDecoder {
    let track: AudioTrack
    let format: PCMFormat
    let length: Int64?
    private let input: FFmpegInput
    private let codec: FFmpegAudioDecoder
    private let packet: FFmpegPacket
    let frame: FFmpegFrame
    let timing: FFmpegTiming
    /// The stream's channel count; frames with another are dropped as damage.
    let sourceChannels: Int
    var queue: PCMQueue
    var gain: Float
    /// The next sample (from the first audible one) to give out; earlier decoded samples are dropped.
    var next: Int64 = 0
    /// A packet read but not yet taken by the decoder.
    private var packetWaiting = false
    private var inputEnded = false
    var ended = false
    private var failures = 0
    var skippedDamage = 0
    static let maxFailures = 32
    /// Samples decoded before a seek target, so AAC's overlap with the previous frame is right at it.
    static let preroll: Int64 = 2048

    init(_ track: AudioTrack, soundCheck: Bool) throws(PlaybackError) {
        self.track = track
        do {
            input = try FFmpegInput(path: track.pathBytes, options: ["advanced_editlist": "0"])
            codec = try FFmpegAudioDecoder(for: input)
            packet = try FFmpegPacket()
            frame = try FFmpegFrame()
        } catch {
            throw PlaybackError("\(track.path) is not playable by FFmpeg (\(error))")
        }
        let stream = input.audio
        guard stream.sampleRate > 0, stream.channels > 0 else {
            throw PlaybackError("\(track.path) is not playable by FFmpeg (no audio format)")
        }
        sourceChannels = stream.channels
        queue = PCMQueue(sourceChannels: stream.channels, order: .wave)
        format = PCMFormat(sampleRate: stream.sampleRate, channels: queue.channels)
        gain = soundCheck ? Float(track.replayGain?.scale ?? 1) : 1
        // The first packet's timestamp places the sample table on the track's timeline.
        var firstPTS: Int64?
        do {
            if try readPacket(input, packet, stream: stream.index) {
                packetWaiting = true
                firstPTS = packet.pts
            }
        } catch {
            throw PlaybackError("\(track.path) is not playable by FFmpeg (\(error))")
        }
        timing = FFmpegTiming(input: input, firstPTS: firstPTS)
        length = timing.length
        // The first frame now: a file that opens but does not decode fails here.
        for _ in 0..<64 where queue.isEmpty && !ended {
            if let failure = decodeSome() {
                throw PlaybackError("\(track.path) is not playable by FFmpeg (\(failure))")
            }
        }
        if queue.isEmpty && (length ?? 1) > 0 {
            throw PlaybackError("\(track.path) is not playable by FFmpeg (no audio frame decodes)")
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> DecodedChunk {
        for _ in 0..<8 where queue.isEmpty && !ended {
            if let failure = decodeSome() { return .failed("\(track.path): \(failure)") }
        }
        let bytes = queue.take(into: buffer)
        return ended && queue.isEmpty ? .end(bytes: bytes) : .data(bytes: bytes)
    }

    func seek(toSample sample: Int64) throws(PlaybackError) {
        queue.removeAll()
        ended = false
        inputEnded = false
        packetWaiting = false
        let target = max(0, sample)
        if let length, target >= length {
            ended = true
            return
        }
        do {
            try input.seek(toTimestamp: timing.timestamp(forSample: target - Self.preroll))
        } catch {
            throw PlaybackError("seek in \(track.path) failed (\(error))")
        }
        codec.flush()
        next = target
    }

    func applyReplayGain(_ on: Bool) {
        gain = on ? Float(track.replayGain?.scale ?? 1) : 1
    }

    /// Decodes until a frame is queued, the stream ends, or more input is needed and was sent; returns a
    /// reason when the file cannot be decoded any further (a run of failures).
    private func decodeSome() -> String? {
        do {
            switch try codec.receive(into: frame) {
            case .frame:
                failures = 0
                take(frame)
                return nil
            case .end:
                ended = true
                return nil
            case .needsInput:
                break
            }
        } catch {
            // A frame that does not decode (damage): skipped.
            skippedDamage += 1
            return fail(error)
        }
        if inputEnded { return nil }
        do {
            if !packetWaiting {
                guard try readPacket(input, packet, stream: input.audio.index) else {
                    inputEnded = true
                    codec.sendEnd()
                    return nil
                }
            }
            packetWaiting = false
            if try !codec.send(packet) { packetWaiting = true }
            return nil
        } catch {
            skippedDamage += 1
            return fail(error)
        }
    }

    private func fail(_ error: FFmpegError) -> String? {
        failures += 1
        return failures >= Self.maxFailures ? "\(error)" : nil
    }
}

/// Reads packets until one of `stream` (`FFmpegInput.read`); false at the end of the file.
private func readPacket(_ input: FFmpegInput, _ packet: FFmpegPacket, stream: Int) throws(FFmpegError) -> Bool {
    while try input.read(into: packet) {
        if packet.streamIndex == stream { return true }
    }
    return false
}
