/// Converts interleaved s16 PCM to a fixed stereo rate, with a software volume: what a `snapcast` output
/// sends, whatever the track's own format.
///
/// A track at the target rate in stereo (nearly every MP3: 44.1 kHz) passes bit for bit (save the volume).
/// Mono is doubled to both channels, more channels keep the first two; another rate is resampled by
/// linear interpolation, the phase kept across calls so chunk edges do not click. Thread rules: one
/// thread (the snapcast sender).
public struct PCMConverter {
    let targetRate: Int
    private var source: PCMFormat?
    /// Fractional read position in the source for the next output frame, relative to the first frame of
    /// the next input (negative: between the last frame of the previous input and the next one).
    private var phase = 0.0
    /// The last stereo frame of the previous input (for interpolating across the edge).
    private var last: (Int16, Int16) = (0, 0)

    public init(targetRate: Int) { self.targetRate = targetRate }

    /// Starts over for a new stream in `format` (no interpolation across streams).
    public mutating func reset(for format: PCMFormat) {
        source = format
        phase = 0
        last = (0, 0)
    }

    /// `bytes` of `source` format in, stereo s16le at `targetRate` appended to `out`; `gain` scales the
    /// samples (1: untouched).
    public mutating func convert(_ bytes: UnsafeRawBufferPointer, gain: Double, into out: inout [Int16]) {
        guard let source, bytes.count >= source.frameSize else { return }
        let channels = source.channels
        let frames = bytes.count / source.frameSize
        let samples = bytes.bindMemory(to: Int16.self)
        func frame(_ i: Int) -> (Int16, Int16) {
            if i < 0 { return last }
            let l = samples[i * channels]
            return (l, channels > 1 ? samples[i * channels + 1] : l)
        }
        let scaled: (Int16) -> Int16 =
            gain >= 1 ? { $0 } : { Int16(clamping: Int((Double($0) * gain).rounded())) }
        if source.sampleRate == targetRate && channels == 2 {
            // Nearly every track: the samples as they are (save the volume), in one tight loop over the
            // buffers (a closure call and an append per sample cost the sender thread as much as the rest of
            // the snapcast output).
            let count = frames * 2, start = out.count
            out.append(contentsOf: repeatElement(0, count: count))
            out.withUnsafeMutableBufferPointer { o in
                if gain >= 1 {
                    for i in 0..<count { o[start + i] = samples[i] }
                } else {
                    // The gain in 16.16 fixed point, rounded to nearest: integer work only (`Double.rounded()`
                    // is a libm call per sample on x86-64).
                    let g = Int((max(0, gain) * 65_536).rounded())
                    for i in 0..<count { o[start + i] = Int16(clamping: (Int(samples[i]) * g + 32_768) >> 16) }
                }
            }
        } else if source.sampleRate == targetRate {
            out.reserveCapacity(out.count + frames * 2)
            for i in 0..<frames {
                let (l, r) = frame(i)
                out.append(scaled(l))
                out.append(scaled(r))
            }
        } else {
            let step = Double(source.sampleRate) / Double(targetRate)
            var pos = phase
            // Output frames fall between source frames floor(pos) and floor(pos) + 1; both must be in hand.
            while pos + 1 < Double(frames) {
                let i = Int(pos.rounded(.down))
                let t = pos - Double(i)
                let a = frame(i), b = frame(i + 1)
                out.append(scaled(Int16(clamping: Int((Double(a.0) + (Double(b.0) - Double(a.0)) * t).rounded()))))
                out.append(scaled(Int16(clamping: Int((Double(a.1) + (Double(b.1) - Double(a.1)) * t).rounded()))))
                pos += step
            }
            phase = pos - Double(frames)
        }
        last = frame(frames - 1)
    }
}
