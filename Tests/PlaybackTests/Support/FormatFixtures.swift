import Foundation

@testable import Playback

/// Test files of every format ClickWheel decodes, made at test time from a sox tone with the real
/// encoders (flac, oggenc, opusenc, ffmpeg), and the PCM they should decode to.
extension Fixtures {
    /// A WAV of exactly `samples` frames of a 440 Hz sine at half scale (sox; the length is set at the
    /// input's rate so no resampling changes it). `encoding`: sox's `-e` (signed-integer, floating-point).
    func source(
        _ name: String, samples: Int, rate: Int = 44_100, channels: Int = 2, bits: Int = 16,
        encoding: String = "signed-integer", frequency: Int = 440
    ) throws -> String {
        let wav = path(name + ".wav")
        try Shell.run([
            "sox", "-r", "\(rate)", "-n", "-c", "\(channels)", "-e", encoding, "-b", "\(bits)", wav, "synth",
            "\(samples)s", "sine", "\(frequency)", "vol", "0.5",
        ])
        return wav
    }

    /// Encodes `wav` as `suffix` with the tool each format's users would use.
    func encode(_ wav: String, as suffix: String, name: String) throws -> String {
        let out = path(name + "." + suffix)
        switch suffix {
        case "flac": try Shell.run(["flac", "-s", "-f", "-o", out, wav])
        case "oga": try Shell.run(["flac", "-s", "-f", "--ogg", "-o", out, wav])
        case "ogg": try Shell.run(["oggenc", "-Q", "-q", "4", "-o", out, wav])
        case "opus": try Shell.run(["opusenc", "--quiet", wav, out])
        case "m4a": try Shell.run(["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "160k", out])
        case "alac.m4a": try Shell.run(["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", "alac", out])
        case "aiff": try Shell.run(["sox", wav, out])
        case "aifc": try Shell.run(["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", "pcm_s16le", out])
        case "wav": try Shell.run(["sox", wav, out])
        case "float.wav": try Shell.run(["sox", wav, "-e", "floating-point", "-b", "32", out])
        default: preconditionFailure("no encoder for .\(suffix)")
        }
        return out
    }

    /// The samples of `wav` rounded to 16 bits the way the decoders round (`S16.from`): what a lossless
    /// file made from it must decode to.
    func expectedSamples(ofWAV wav: String) throws -> [Int16] {
        let raw = path(URL(fileURLWithPath: wav).lastPathComponent + ".s32")
        try Shell.run(["sox", "-D", wav, "-t", "raw", "-e", "signed-integer", "-b", "32", raw])
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        return data.withUnsafeBytes { bytes in
            bytes.bindMemory(to: Int32.self).map { S16.from(Int32(littleEndian: $0), bits: 32, gain: 1) }
        }
    }

    /// A copy of `file` cut to `fraction` of its size.
    func truncated(_ file: String, to fraction: Double) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let url = URL(fileURLWithPath: file)
        let p = path("cut-" + url.lastPathComponent)
        _ = FileManager.default.createFile(atPath: p, contents: data.prefix(Int(Double(data.count) * fraction)))
        return p
    }

    /// Random bytes under a name with `suffix`.
    func junk(suffix: String) throws -> String {
        let p = path("junk." + suffix)
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<30_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
        return p
    }
}

/// Decoding a whole track in tests.
enum Decode {
    /// Everything `decoder` yields from where it is, and whether it ended cleanly (`.end`).
    static func all(_ decoder: any TrackDecoder, chunk: Int = 5000) -> (samples: [Int16], ended: Bool) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk * decoder.format.frameSize, alignment: 16)
        defer { buffer.deallocate() }
        var out: [Int16] = []
        for _ in 0..<1_000_000 {
            let chunk = decoder.read(into: buffer)
            let n: Int
            switch chunk {
            case .data(let b), .end(let b): n = b
            case .failed: return (out, false)
            }
            out += UnsafeRawBufferPointer(rebasing: buffer[0..<n]).bindMemory(to: Int16.self)
            if case .end = chunk { return (out, true) }
        }
        return (out, false)
    }

    /// Opens `path` through the plugin table and decodes it whole.
    static func file(_ path: String, soundCheck: Bool = false, gain: Double? = nil) throws -> (
        samples: [Int16], ended: Bool, format: PCMFormat, length: Int64?
    ) {
        let track = AudioTrack(id: 1, path: path, replayGain: gain.map { ReplayGain(gain: $0) })
        let d = try Decoders.open(track, soundCheck: soundCheck)
        let r = all(d)
        return (r.samples, r.ended, d.format, d.length)
    }

    /// Zero crossings of channel 0 (rising and falling), for a tone's frequency.
    static func crossings(_ samples: [Int16], channels: Int) -> Int {
        var n = 0
        var last: Int16 = 0
        for i in stride(from: 0, to: samples.count, by: channels) where samples[i] != 0 {
            if (samples[i] > 0) != (last > 0), last != 0 { n += 1 }
            last = samples[i]
        }
        return n
    }

    /// Root mean square of all samples, full scale 1.
    static func rms(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot() / 32768
    }
}
