/// The exact playable length of an MP4 audio track, from the best source the file has: iTunes's gapless
/// info (`iTunSMPB`), else the edit list, else the sample table's total.
///
/// All three are in the track's media timescale or the output rate; the result is in samples per channel
/// at the output rate. An edit list's duration is in the movie's timescale (ffmpeg writes 1000 per second,
/// too coarse for one sample): when the sample table's total less the edit's start agrees with it to within
/// one movie tick, that total is the exact one (ffmpeg trims the last AAC frame's duration in `stts`).
struct MP4Length: Equatable {
    var samples: Int64?
    var encoderDelay = 0
    var padding = 0
    var problems: [FormatError] = []

    /// What the length is computed from.
    struct Inputs {
        var format: MP4AudioFormat
        /// The audio track's media timescale.
        var timescale: Int
        /// `stts`: samples and their total duration in media timescale units.
        var sampleCount: Int64
        var duration: Int64
        var edit: MP4Edit?
        var movieTimescale: Int
        var gapless: ITunesGapless?
    }

    init(_ x: Inputs) {
        let rate = x.format.sampleRate
        guard x.timescale > 0, x.duration > 0 else {
            problems.append(FormatError("unsupported", "the sample table is empty: the exact length is not known"))
            return
        }
        let toOutput = { (v: Int64) in Self.rescale(v, from: x.timescale, to: rate) }
        // Samples per channel all the access units decode to, when each decodes to a known count.
        let decoded = x.format.frameLength.flatMap { length -> Int64? in
            let (product, overflow) = x.sampleCount.multipliedReportingOverflow(by: Int64(length))
            return overflow ? nil : product
        }
        func paddingAfter(_ samples: Int64, _ delay: Int64) -> Int {
            guard let decoded, decoded - delay - samples > 0 else { return 0 }
            return Int(clamping: decoded - delay - samples)
        }

        if x.format.codec == .alac || x.format.codec == .flac {  // lossless: no priming, no padding
            samples = toOutput(x.duration)
            return
        }
        if let g = x.gapless, g.samples > 0 {
            if let decoded, g.samples > decoded {
                problems.append(
                    FormatError("damaged", "iTunSMPB claims \(g.samples) samples, more than the track's \(decoded)"))
            } else {
                (samples, encoderDelay, padding) = (g.samples, g.delay, g.padding)
                return
            }
        }
        if let edit = x.edit, edit.mediaTime <= x.duration {
            let fromTable = x.duration - edit.mediaTime
            var played = fromTable
            if edit.segmentDuration > 0, x.movieTimescale > 0 {
                let segment = Self.rescale(edit.segmentDuration, from: x.movieTimescale, to: x.timescale)
                let tick = Int64((x.timescale + x.movieTimescale - 1) / x.movieTimescale)
                if abs(segment - fromTable) > tick { played = min(segment, fromTable) }
            }
            samples = toOutput(played)
            encoderDelay = Int(clamping: toOutput(edit.mediaTime))
            padding = paddingAfter(samples ?? 0, Int64(encoderDelay))
            return
        }
        let total = toOutput(x.duration)
        let delay = Int64(min(x.format.preSkip, Int(clamping: total)))
        samples = total - delay
        encoderDelay = Int(delay)
        padding = paddingAfter(total - delay, delay)
    }

    /// `v` units of `from` per second in units of `to` per second, rounded; clamped where it would overflow.
    static func rescale(_ v: Int64, from: Int, to: Int) -> Int64 {
        guard from != to else { return v }
        guard from > 0, to >= 0, v >= 0 else { return 0 }
        let (from, to) = (Int64(from), Int64(to))
        let (whole, part) = v.quotientAndRemainder(dividingBy: from)  // v·to/from = whole·to + part·to/from
        let (head, overflow) = whole.multipliedReportingOverflow(by: to)
        let (partTo, overflow2) = part.multipliedReportingOverflow(by: to)
        let tail =
            overflow2 || partTo > Int64.max / 2
            ? Int64((Double(part) * Double(to) / Double(from)).rounded()) : (partTo + from / 2) / from
        let (sum, overflow3) = head.addingReportingOverflow(tail)
        return overflow || overflow3 ? Int64.max : sum
    }
}

/// iTunes's gapless playback info, the freeform `----:com.apple.iTunes:iTunSMPB`: hex words, the second
/// the encoder's delay, the third the padding, the fourth the original length in samples per channel.
struct ITunesGapless: Equatable {
    var delay: Int
    var padding: Int
    var samples: Int64

    init?(_ text: String) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\0" })
        guard words.count >= 4, let delay = UInt32(words[1], radix: 16), let padding = UInt32(words[2], radix: 16),
            let samples = UInt64(words[3], radix: 16), samples <= UInt64(Int64.max)
        else { return nil }
        self.delay = Int(delay)
        self.padding = Int(padding)
        self.samples = Int64(samples)
    }
}
