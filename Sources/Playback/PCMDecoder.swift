import AudioFormats

/// The `pcm` decoder: WAV (RIFF, RF64) and AIFF/AIFF-C files of integer or float samples, read by the
/// project's own `RIFFReader`/`AIFFReader` and played straight from the sample range they find: exactly
/// the file's frames, 16-bit bit for bit, wider samples rounded (`S16`). Seeking is exact. 16-bit mono and
/// stereo, nearly every WAV and AIFF file, is read straight into the player's buffer.
///
/// A cut file plays up to its last whole frame; a read error ends the track as `.failed`.
///
/// Thread rules: audio thread only (see `TrackDecoder`).
final class PCMDecoder: TrackDecoder {
    let track: AudioTrack
    let format: PCMFormat
    let length: Int64?
    private let file: FileByteSource
    private let info: AudioFileInfo
    private let data: Range<Int>
    private let bytesPerSample: Int
    private let frameBytes: Int
    private var queue: PCMQueue
    private var raw: [UInt8]
    private var position: Int64 = 0
    private var gain: Float
    /// 16-bit integer samples in one or two channels: read without the queue (`readDirect`).
    private let direct: Bool
    var skippedDamage: Int { 0 }
    /// Frames read per call.
    private static let chunk = 4096

    init(_ track: AudioTrack, soundCheck: Bool) throws(PlaybackError) {
        self.track = track
        file = try FileByteSource(path: track.pathBytes)
        do {
            let magic = try file.read(at: 0, count: 4)
            info = magic == Array("FORM".utf8) ? try AIFFReader.read(file) : try RIFFReader.read(file)
        } catch {
            throw PlaybackError("\(track.path) is not playable WAV or AIFF (\(error))")
        }
        bytesPerSample = ((info.bitsPerSample ?? 0) + 7) / 8
        guard let data = info.dataRange, info.sampleRate > 0, info.channels > 0,
            info.isFloat ? [4, 8].contains(bytesPerSample) : (1...4).contains(bytesPerSample)
        else { throw PlaybackError("\(track.path) is not playable WAV or AIFF (no sample data or format)") }
        self.data = data
        frameBytes = bytesPerSample * info.channels
        length = Int64(data.count / frameBytes)
        queue = PCMQueue(sourceChannels: info.channels, order: .wave)
        format = PCMFormat(sampleRate: info.sampleRate, channels: queue.channels)
        raw = [UInt8](repeating: 0, count: Self.chunk * frameBytes)
        gain = soundCheck ? Float(track.replayGain?.scale ?? 1) : 1
        direct = !info.isFloat && bytesPerSample == 2 && info.channels <= 2
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> DecodedChunk {
        let total = length ?? 0
        if direct && queue.isEmpty { return readDirect(into: buffer, total: total) }
        if queue.isEmpty && position < total {
            let frames = Int(min(Int64(Self.chunk), total - position))
            let offset = data.lowerBound + Int(position) * frameBytes
            var got = 0
            var failure: FormatError?
            let file = self.file
            raw.withUnsafeMutableBytes { b in
                do throws(FormatError) {
                    got = try file.read(
                        into: UnsafeMutableRawBufferPointer(rebasing: b[0..<frames * frameBytes]), at: offset)
                } catch { failure = error }
            }
            if let failure { return .failed("\(track.path): \(failure)") }
            let whole = got / frameBytes
            convert(frames: whole)
            // A file cut since it was opened: what is there was played.
            position = whole < frames ? total : position + Int64(whole)
        }
        let bytes = queue.take(into: buffer)
        return queue.isEmpty && position >= total ? .end(bytes: bytes) : .data(bytes: bytes)
    }

    /// 16-bit mono or stereo, the pipeline's own samples: read straight into the player's buffer (no queue,
    /// no per-sample conversion), then swapped in place from big-endian (AIFF) and scaled by Sound Check's
    /// gain when there is one, each sample as `S16.from` does it in the queue path.
    private func readDirect(into buffer: UnsafeMutableRawBufferPointer, total: Int64) -> DecodedChunk {
        let frames = Int(min(Int64(buffer.count / frameBytes), total - position))
        guard frames > 0 else { return position >= total ? .end(bytes: 0) : .data(bytes: 0) }
        let got: Int
        do {
            got = try file.read(
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<frames * frameBytes]),
                at: data.lowerBound + Int(position) * frameBytes)
        } catch { return .failed("\(track.path): \(error)") }
        let whole = got / frameBytes
        let samples = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<whole * frameBytes]).bindMemory(to: Int16.self)
        if info.bigEndian {
            for i in samples.indices { samples[i] = Int16(bigEndian: samples[i]) }
        }
        let gain = self.gain
        if gain != 1 {
            for i in samples.indices { samples[i] = S16.from(Int32(samples[i]), bits: 16, gain: gain) }
        }
        // A file cut since it was opened: what is there was played.
        position = whole < frames ? total : position + Int64(whole)
        return position >= total ? .end(bytes: whole * frameBytes) : .data(bytes: whole * frameBytes)
    }

    func seek(toSample sample: Int64) throws(PlaybackError) {
        queue.removeAll()
        position = min(max(0, sample), length ?? 0)
    }

    func applyReplayGain(_ on: Bool) {
        gain = on ? Float(track.replayGain?.scale ?? 1) : 1
    }

    /// The first `frames` frames of `raw` into the queue, by the file's sample encoding.
    private func convert(frames: Int) {
        let gain = self.gain, width = bytesPerSample, ch = info.channels, big = info.bigEndian
        // WAV's 8-bit samples are unsigned, AIFF's signed.
        let unsigned8 = info.container == .wav && width == 1
        raw.withUnsafeBytes { bytes in
            let base = bytes.baseAddress!
            /// The `width` bytes of sample slot `i` as an unsigned number, in the file's byte order.
            func word(_ i: Int) -> UInt64 {
                let p = base + i * width
                var v: UInt64 = 0
                for k in 0..<width {
                    v = v << 8 | UInt64(p.load(fromByteOffset: big ? k : width - 1 - k, as: UInt8.self))
                }
                return v
            }
            if info.isFloat {
                queue.append(frames: frames) { f, c in
                    let w = word(f * ch + c)
                    let x = width == 4 ? Float(bitPattern: UInt32(truncatingIfNeeded: w)) : Float(Double(bitPattern: w))
                    return S16.from(x, gain: gain)
                }
            } else if unsigned8 {
                queue.append(frames: frames) { f, c in S16.from(Int32(word(f * ch + c)) - 128, bits: 8, gain: gain) }
            } else {
                let shift = Int32(32 - 8 * width)
                queue.append(frames: frames) { f, c in
                    let v = Int32(bitPattern: UInt32(truncatingIfNeeded: word(f * ch + c)) << UInt32(shift)) >> shift
                    return S16.from(v, bits: 8 * width, gain: gain)
                }
            }
        }
    }
}
