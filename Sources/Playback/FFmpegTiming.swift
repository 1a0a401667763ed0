import FFmpeg

/// Where an FFmpeg stream's audible samples lie on its timestamps: the encoder delay to drop when
/// libavcodec does not, and the exact length.
///
/// - MP4 with an edit list (what `ffmpeg -c:a aac` writes, and iTunes): with `advanced_editlist` off,
///   libavformat shifts the timestamps so the edit's media time is 0 (the first packet starts at minus the
///   delay) and has libavcodec drop the delay; the sample table's total duration, counted from there,
///   is the length. FFmpeg's own files give it to the sample (their last `stts` entry is the real
///   remainder); the edit's segment duration would not (it is in the movie's 1/1000 s time scale).
/// - An `iTunSMPB` tag (iTunes, and encoders that copy it) gives the delay and the length directly; it
///   wins, and its delay is dropped here when the timestamps do not already start at minus it (no edit list).
/// - Otherwise (ADTS): the stream's duration when the container states it, else unknown.
///
/// Thread rules: a value; audio thread.
struct FFmpegTiming {
    /// Samples from the stream's timestamp 0 to the first audible sample.
    let origin: Int64
    /// Audible samples per channel, nil when unknown.
    let length: Int64?
    private let sampleRate: Int64
    private let timeBase: (num: Int64, den: Int64)

    init(input: FFmpegInput, firstPTS: Int64?) {
        let stream = input.audio
        sampleRate = Int64(stream.sampleRate)
        timeBase = (Int64(stream.timeBase.num), Int64(max(1, stream.timeBase.den)))
        let toSamples = { (t: Int64) in
            t * Int64(stream.timeBase.num) * Int64(stream.sampleRate) / Int64(max(1, stream.timeBase.den))
        }
        let first = firstPTS.map(toSamples) ?? 0
        let isMP4 = input.formatName.contains("mp4")
        var origin: Int64 = 0
        var length = stream.duration.map { toSamples($0) + (isMP4 ? min(0, first) : 0) }
        if isMP4, let smpb = input.tag("iTunSMPB").flatMap(Self.iTunSMPB) {
            if first >= 0 { origin = smpb.delay }
            length = smpb.samples
        }
        self.origin = origin
        self.length = length.map { max(0, $0) }
    }

    /// A frame timestamp as a sample of the track (from the first audible one).
    func sample(forTimestamp t: Int64) -> Int64 { t * timeBase.num * sampleRate / timeBase.den - origin }

    /// The stream timestamp of a sample of the track (from the first audible one; may be negative).
    func timestamp(forSample s: Int64) -> Int64 {
        (s + origin) * timeBase.den / max(1, timeBase.num * sampleRate)
    }

    /// Parses iTunes's gapless tag: " 00000000 00000840 000001CA 00000000003F31F6 …" (hex words: zero,
    /// delay, padding, sample count). Nil when it does not hold a positive count.
    static func iTunSMPB(_ text: String) -> (delay: Int64, padding: Int64, samples: Int64)? {
        let words = text.split(separator: " ").compactMap { Int64($0, radix: 16) }
        guard words.count >= 4, words[3] > 0, words[1] >= 0 else { return nil }
        return (words[1], words[2], words[3])
    }
}
