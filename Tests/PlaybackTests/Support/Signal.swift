import Foundation

/// One captured channel as floats in −1…1, with the measurements the tests make on it.
struct Signal {
    let samples: [Float]
    let rate: Int

    init(samples: [Float], rate: Int = Capture.rate) {
        self.samples = samples
        self.rate = rate
    }

    /// Reads s16le stereo and keeps the left channel.
    init(rawStereoFile url: URL) throws {
        let data = try Data(contentsOf: url)
        var left = [Float]()
        left.reserveCapacity(data.count / 4)
        data.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: Int16.self)
            var i = 0
            while i + 1 < words.count {
                left.append(Float(Int16(littleEndian: words[i])) / 32768)
                i += 2
            }
        }
        self.init(samples: left)
    }

    /// One stretch of the signal and what it sounds like.
    struct Window {
        var start: Int
        var count: Int
        var rms: Double
        /// From upward zero crossings, interpolated; nil when too quiet or too few crossings.
        var frequency: Double?
        var time: Double
    }

    /// Cuts the signal into windows of `milliseconds` and measures each.
    func windows(milliseconds: Int = 20, silence: Double = 0.01) -> [Window] {
        let size = rate * milliseconds / 1000
        return stride(from: 0, to: samples.count - size, by: size).map { start in
            let rms = self.rms(start..<start + size)
            let f = rms < silence ? nil : frequency(start..<start + size)
            return Window(start: start, count: size, rms: rms, frequency: f, time: Double(start) / Double(rate))
        }
    }

    func rms(_ range: Range<Int>) -> Double {
        var sum = 0.0
        for i in range { sum += Double(samples[i]) * Double(samples[i]) }
        return (sum / Double(max(1, range.count))).squareRoot()
    }

    /// Frequency from the first to the last upward zero crossing (sub-sample interpolated).
    func frequency(_ range: Range<Int>) -> Double? {
        var first: Double?
        var last = 0.0
        var count = 0
        for i in range.dropFirst() where samples[i - 1] < 0 && samples[i] >= 0 {
            let t = Double(i - 1) + Double(-samples[i - 1]) / Double(samples[i] - samples[i - 1])
            if first == nil { first = t }
            last = t
            count += 1
        }
        guard let first, count >= 3, last > first else { return nil }
        return Double(count - 1) / (last - first) * Double(rate)
    }

    /// Index range from the first to the last sample louder than `threshold`.
    func audibleRange(threshold: Float = 0.01) -> Range<Int>? {
        guard let a = samples.firstIndex(where: { abs($0) > threshold }),
            let b = samples.lastIndex(where: { abs($0) > threshold })
        else { return nil }
        return a..<(b + 1)
    }

    /// The tones heard, in order: runs of windows at one frequency (±3 %) lasting at least `minimum`
    /// windows, each given as its median frequency.
    func toneSequence(minimum: Int = 5) -> [Double] {
        var runs: [[Double]] = []
        for w in windows() {
            guard let f = w.frequency else { continue }
            if let last = runs.last?.last, abs(f - last) / last < 0.03 {
                runs[runs.count - 1].append(f)
            } else {
                runs.append([f])
            }
        }
        return runs.filter { $0.count >= minimum }.map { $0.sorted()[$0.count / 2] }
    }

    /// Stretches of silence (all windows under `silence` RMS) longer than `seconds`, as time ranges,
    /// between the first and last audible window.
    func silences(longerThan seconds: Double, silence: Double = 0.01) -> [ClosedRange<Double>] {
        let ws = windows(silence: silence)
        guard let first = ws.firstIndex(where: { $0.rms >= silence }),
            let last = ws.lastIndex(where: { $0.rms >= silence })
        else { return [] }
        var out: [ClosedRange<Double>] = []
        var runStart: Double?
        for w in ws[first...last] {
            if w.rms < silence {
                if runStart == nil { runStart = w.time }
            } else if let s = runStart {
                if w.time - s > seconds { out.append(s...w.time) }
                runStart = nil
            }
        }
        return out
    }

    /// Largest deviation from a pure sine of angular step `omega` over `range`: for a sine
    /// x[n] − 2cos(ω)x[n−1] + x[n−2] is zero, so a gap or a jump at a join shows up as a spike.
    func sineResidual(frequency: Double, in range: Range<Int>) -> Double {
        sineResidualPeak(frequency: frequency, in: range).residual
    }

    /// `sineResidual` and the sample where it is largest.
    func sineResidualPeak(frequency: Double, in range: Range<Int>) -> (residual: Double, at: Int) {
        let c = 2 * cos(2 * Double.pi * frequency / Double(rate))
        var worst = 0.0
        var at = range.lowerBound
        for n in (range.lowerBound + 2)..<range.upperBound {
            let r = abs(Double(samples[n]) - c * Double(samples[n - 1]) + Double(samples[n - 2]))
            if r > worst { (worst, at) = (r, n) }
        }
        return (worst, at)
    }
}
