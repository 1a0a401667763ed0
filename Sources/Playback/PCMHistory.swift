/// The last second or two of PCM written to the stream, by stream frame: what a pause rewrites as a fade.
///
/// After a flush the server plays on from its read index; the frames from there were written already, so
/// they are taken from here (exactly what would have been heard), faded, and written again.
/// Thread rules: a value owned by the audio thread.
struct PCMHistory {
    private var samples: [Int16]
    private(set) var channels: Int
    private var capacity: Int
    /// Stream frame after the last one recorded.
    private(set) var end: Int64 = 0
    /// Frames held (the newest `held` frames before `end`).
    private var held = 0

    /// Holds `seconds` of `format`.
    init(format: PCMFormat, seconds: Double = 2) {
        channels = format.channels
        capacity = max(1, Int(Double(format.sampleRate) * seconds))
        samples = Array(repeating: 0, count: capacity * channels)
    }

    /// Forgets everything; the next recorded frame is stream frame `frame`.
    mutating func reset(at frame: Int64) {
        end = frame
        held = 0
    }

    /// Records interleaved s16 frames written at `end` (at most two block copies: the audio thread does this
    /// for every write).
    mutating func record(_ bytes: UnsafeRawBufferPointer) {
        let frames = bytes.count / (2 * channels)
        let skip = max(0, frames - capacity)
        var frame = skip
        samples.withUnsafeMutableBytes { ring in
            while frame < frames {
                let slot = Int((end + Int64(frame)) % Int64(capacity))
                let n = min(frames - frame, capacity - slot)
                let size = 2 * channels
                ring.baseAddress!.advanced(by: slot * size)
                    .copyMemory(from: bytes.baseAddress!.advanced(by: frame * size), byteCount: n * size)
                frame += n
            }
        }
        end += Int64(frames)
        held = min(capacity, held + frames)
    }

    /// The interleaved samples of frames `start ..< start + count`, nil unless all of them are held.
    func frames(from start: Int64, count: Int) -> [Int16]? {
        guard count >= 0, start >= end - Int64(held), start + Int64(count) <= end else { return nil }
        var out = [Int16](repeating: 0, count: count * channels)
        for f in 0..<count {
            let slot = Int((start + Int64(f)) % Int64(capacity)) * channels
            for c in 0..<channels { out[f * channels + c] = samples[slot + c] }
        }
        return out
    }
}

/// Short gain ramps at pause and resume, so a pause does not cut the waveform mid-swing (a click).
enum Fade {
    /// The ramp length: long enough to take the click away, short enough to feel instant.
    static let milliseconds = 40

    static func frames(rate: Int) -> Int { rate * milliseconds / 1000 }

    /// Scales interleaved samples by a linear ramp: frame `i` of the buffer is frame `offset + i` of a
    /// `length`-frame ramp going up from 0 to 1 (`rising`) or down from 1 to 0.
    static func apply(
        _ samples: UnsafeMutableBufferPointer<Int16>, channels: Int, offset: Int, length: Int, rising: Bool
    ) {
        guard length > 0 else { return }
        let frames = samples.count / channels
        for f in 0..<frames {
            let step = min(length, offset + f)
            let up = Double(step) / Double(length)
            let gain = rising ? up : 1 - up
            for c in 0..<channels {
                let i = f * channels + c
                samples[i] = Int16((Double(samples[i]) * gain).rounded())
            }
        }
    }
}
