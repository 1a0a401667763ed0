import Foundation
import Testing

@testable import Playback

/// Every format's decoder on files made by the real encoders: exact lengths, bit-exact lossless PCM, the
/// right tone from lossy codecs, exact seeks, Sound Check's gain.
/// A file made from a sox tone: its suffix (the encoder), the source's rate, bits and channels.
struct FormatCase: Sendable, CustomTestStringConvertible {
    var suffix: String
    var rate = 44_100
    var bits = 16
    var channels = 2
    var plugin: String
    var testDescription: String { "\(suffix) \(bits)-bit \(rate) Hz \(channels) ch" }
}

@Suite struct FormatDecoderTests {
    typealias Case = FormatCase

    static let losslessCases: [Case] = [
        Case(suffix: "flac", plugin: "flac"),
        Case(suffix: "flac", rate: 96_000, bits: 24, plugin: "flac"),
        Case(suffix: "oga", channels: 1, plugin: "flac"),
        Case(suffix: "alac.m4a", plugin: "ffmpeg"),
        Case(suffix: "alac.m4a", rate: 96_000, bits: 24, plugin: "ffmpeg"),
        Case(suffix: "wav", plugin: "pcm"),
        Case(suffix: "wav", rate: 96_000, bits: 24, plugin: "pcm"),
        Case(suffix: "wav", bits: 8, channels: 1, plugin: "pcm"),
        Case(suffix: "float.wav", plugin: "pcm"),
        Case(suffix: "aiff", plugin: "pcm"),
        Case(suffix: "aiff", rate: 48_000, bits: 24, plugin: "pcm"),
        Case(suffix: "aifc", plugin: "pcm"),
    ]

    static let lossyCases: [Case] = [
        Case(suffix: "ogg", plugin: "vorbis"),
        Case(suffix: "opus", rate: 48_000, plugin: "opus"),
        Case(suffix: "m4a", plugin: "ffmpeg"),
        Case(suffix: "m4a", rate: 48_000, channels: 1, plugin: "ffmpeg"),
    ]

    /// An odd length, so no format's block size divides it.
    static let samples = 30_001
    static let seekTarget = 12_345

    func make(_ c: Case, _ fixtures: Fixtures) throws -> (file: String, source: String) {
        let wav = try fixtures.source("src", samples: Self.samples, rate: c.rate, channels: c.channels, bits: c.bits)
        return (try fixtures.encode(wav, as: c.suffix, name: "track"), wav)
    }

    @Test(
        "lossless: exact length, bit-identical PCM (wider sources rounded to 16 bits), exact seek",
        arguments: losslessCases)
    func lossless(_ c: Case) throws {
        let fixtures = try Fixtures()
        let (file, wav) = try make(c, fixtures)
        let expected = try fixtures.expectedSamples(ofWAV: wav)
        #expect(expected.count == Self.samples * c.channels)
        let track = AudioTrack(id: 1, path: file)
        let decoder = try Decoders.open(track, soundCheck: false)
        #expect(decoder.format == PCMFormat(sampleRate: c.rate, channels: c.channels))
        #expect(decoder.length == Int64(Self.samples))
        let whole = Decode.all(decoder)
        #expect(whole.ended)
        #expect(whole.samples.count == expected.count, "decoded \(whole.samples.count / c.channels) frames")
        let firstDifference = zip(whole.samples, expected).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(firstDifference == nil, "first difference at sample \(firstDifference?.offset ?? -1)")

        try decoder.seek(toSample: Int64(Self.seekTarget))
        let tail = Decode.all(decoder)
        #expect(tail.ended)
        #expect(tail.samples == Array(expected[(Self.seekTarget * c.channels)...]), "seek to \(Self.seekTarget)")
        try decoder.seek(toSample: 0)
        #expect(Decode.all(decoder).samples == expected, "seek back to 0")
    }

    /// A FLAC that ffmpeg wrote into a pipe has 0 for STREAMINFO's total (the index reads its length from
    /// the first and last frame headers, `FLACReaderTests`): libFLAC decodes it to exactly the input, and
    /// the decoder says no length of its own.
    @Test func aStreamedFLACDecodesToTheInputExactly() throws {
        let fixtures = try Fixtures()
        let wav = try fixtures.source("src", samples: Self.samples)
        let file = fixtures.path("streamed.flac")
        try Shell.run(["sh", "-c", "ffmpeg -v error -i '\(wav)' -f flac - | cat > '\(file)'"])
        let decoder = try Decoders.open(AudioTrack(id: 1, path: file), soundCheck: false)
        #expect(decoder.length == nil)
        let whole = Decode.all(decoder)
        #expect(whole.ended)
        #expect(whole.samples == (try fixtures.expectedSamples(ofWAV: wav)), "decoded \(whole.samples.count / 2) frames")
    }

    @Test("lossy: exact length, the tone's frequency and level, seek lands on the same samples", arguments: lossyCases)
    func lossy(_ c: Case) throws {
        let fixtures = try Fixtures()
        let (file, _) = try make(c, fixtures)
        let decoder = try Decoders.open(AudioTrack(id: 1, path: file), soundCheck: false)
        #expect(decoder.format == PCMFormat(sampleRate: c.rate, channels: c.channels))
        #expect(decoder.length == Int64(Self.samples))
        let whole = Decode.all(decoder)
        #expect(whole.ended)
        #expect(whole.samples.count == Self.samples * c.channels, "decoded \(whole.samples.count / c.channels) frames")
        let want = 2 * 440 * Double(Self.samples) / Double(c.rate)
        let got = Double(Decode.crossings(whole.samples, channels: c.channels))
        #expect(abs(got - want) <= want * 0.02, "\(got) zero crossings, want about \(want)")
        let rms = Decode.rms(whole.samples[...])
        #expect(abs(rms - 0.5 / 2.0.squareRoot()) < 0.03, "RMS \(rms)")

        try decoder.seek(toSample: Int64(Self.seekTarget))
        let tail = Decode.all(decoder)
        #expect(tail.samples.count == (Self.samples - Self.seekTarget) * c.channels)
        // Opus's decoder state after a seek converges over its pre-roll rather than matching bit for bit, so
        // the landing is checked by alignment: the tail matches the whole decode best with no offset.
        func difference(offset: Int) -> Double {
            let reference = whole.samples[((Self.seekTarget + offset) * c.channels)...]
            return Decode.rms(zip(tail.samples, reference).map { Int16(clamping: Int($0) - Int($1)) }[...])
        }
        let exact = difference(offset: 0)
        #expect(exact < 0.02, "after a seek the samples differ by RMS \(exact)")
        #expect(exact < difference(offset: 1) && exact < difference(offset: -1), "the seek is off by a sample")
    }

    @Test(
        "Sound Check at −6 dB halves every sample",
        arguments: ["flac", "ogg", "opus", "m4a", "alac.m4a", "wav", "aiff"])
    func soundCheckHalves(_ suffix: String) throws {
        let fixtures = try Fixtures()
        let rate = suffix == "opus" ? 48_000 : 44_100
        let wav = try fixtures.source("src", samples: 20_000, rate: rate)
        let file = try fixtures.encode(wav, as: suffix, name: "track")
        let unity = try Decode.file(file)
        let half = try Decode.file(file, soundCheck: true, gain: 20 * log10(0.5))
        #expect(half.samples.count == unity.samples.count)
        let worst = zip(half.samples, unity.samples).map { abs(Int($0) - Int((Double($1) / 2).rounded())) }.max() ?? 0
        #expect(worst <= 1, "a sample is \(worst) off half")
        // Turned on later: applies to what is decoded from then on.
        let decoder = try Decoders.open(
            AudioTrack(id: 1, path: file, replayGain: ReplayGain(gain: 20 * log10(0.5))), soundCheck: false)
        decoder.applyReplayGain(true)
        #expect(Decode.all(decoder).samples.count == unity.samples.count)
    }

    @Test(
        "5.1 mixes down to stereo by each codec's channel order, without clipping (the outputs take no channel map)",
        arguments: ["flac", "ogg", "wav", "alac.m4a"])
    func surroundMixesDown(_ suffix: String) throws {
        let fixtures = try Fixtures()
        // A sine on the front centre only (WAV order: FL FR FC LFE BL BR; encoders map it to their own): it
        // reaches both sides equally at the centre's weight, 0.7071 / (1 + 0.7071 + 0.7071) of full.
        let mono = try fixtures.source("mono", samples: 10_000, channels: 1)
        let wav = fixtures.path("six.wav")
        try Shell.run(["sox", mono, "-b", "16", wav, "remix", "0", "0", "1", "0", "0", "0"])
        let file = try fixtures.encode(wav, as: suffix, name: "surround")
        let source = try fixtures.expectedSamples(ofWAV: mono)
        let r = try Decode.file(file)
        #expect(r.format == PCMFormat(sampleRate: 44_100, channels: 2))
        #expect(r.samples.count == 10_000 * 2)
        let weight = 0.7071 / (1 + 2 * 0.7071)
        var worst = 0.0
        for f in 0..<min(10_000, r.samples.count / 2) {
            let want = Double(source[f]) * weight
            worst = max(worst, abs(Double(r.samples[2 * f]) - want), abs(Double(r.samples[2 * f + 1]) - want))
        }
        #expect(worst <= (suffix == "ogg" ? 200 : 2), "a mixed sample is \(worst) off the centre's share")
    }
}
