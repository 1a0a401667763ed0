import Foundation

/// Test tracks made at test time with sox and lame in a temporary folder (nothing binary is committed).
final class Fixtures {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-playback-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    /// Removes the folder unless `CW_KEEP_FIXTURES` is set (to listen to or inspect what a test played).
    deinit {
        if ProcessInfo.processInfo.environment["CW_KEEP_FIXTURES"] == nil {
            try? FileManager.default.removeItem(at: dir)
        }
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// A sine (or a linear sweep `from:to`) as a LAME VBR MP3 with an Info tag (gapless trimming).
    func tone(
        _ name: String, frequency: String, seconds: Double, rate: Int = 44_100, channels: Int = 2,
        volume: Double = 0.5
    ) throws -> String {
        let wav = path(name + ".wav")
        try Shell.run([
            "sox", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", wav, "synth", "\(seconds)", "sine",
            frequency, "vol", "\(volume)",
        ])
        return try encode(wav, name)
    }

    /// One continuous sine cut into `parts` equal files, each its own MP3 (a gapless "album").
    func album(_ name: String, frequency: Double, seconds: Double, parts: Int) throws -> [String] {
        let full = path(name + "-full.wav")
        try Shell.run([
            "sox", "-n", "-r", "44100", "-c", "2", "-b", "16", full, "synth", "\(seconds)", "sine", "\(frequency)",
            "vol", "0.5",
        ])
        let length = seconds / Double(parts)
        return try (0..<parts).map { i in
            let wav = path("\(name)-\(i + 1).wav")
            try Shell.run(["sox", full, wav, "trim", "\(Double(i) * length)", "\(length)"])
            return try encode(wav, "\(name)-\(i + 1)")
        }
    }

    /// Spoken word: `text` read by espeak-ng, made a 44.1 kHz stereo podcast-like file with sox, encoded
    /// by lame. Returns the MP3 and the WAV it was made from (what the listener should hear at 1×).
    func speech(_ name: String, text: String) throws -> (mp3: String, wav: String) {
        let voice = path(name + "-voice.wav")
        try Shell.run(["espeak-ng", "-s", "170", "-w", voice, text])
        let wav = path(name + ".wav")
        try Shell.run(["sox", voice, "-r", "44100", "-c", "2", "-b", "16", wav])
        return (try encode(wav, name), wav)
    }

    /// A WAV as the left channel of 44.1 kHz s16 (sox converts), for measuring it like a capture.
    func signal(ofWAV wav: String) throws -> Signal {
        let raw = path(URL(fileURLWithPath: wav).deletingPathExtension().lastPathComponent + ".raw")
        try Shell.run(["sox", wav, "-t", "raw", "-e", "signed", "-b", "16", "-r", "44100", "-c", "2", raw])
        return try Signal(rawStereoFile: URL(fileURLWithPath: raw))
    }

    /// A file that is not MP3 at all.
    func garbage(_ name: String) throws -> String {
        let p = path(name + ".mp3")
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
        return p
    }

    /// A copy of `mp3` with `count` bytes zeroed at `fraction` of its length: a few frames lose their
    /// headers and data, as after a bad block on an SD card. With `forgingHeader`, the damage ends in a
    /// forged frame of another format (MPEG 1 Layer III, 32 kHz mono, 64 kbit/s: 288 bytes, header then
    /// junk), as leftover frame data sometimes forges one by chance: libmpg123 then announces a
    /// "Frankenstein" format change for one frame of noise and changes back at the next real header.
    func corrupted(_ mp3: String, at fraction: Double, count: Int, forgingHeader: Bool = false) throws -> String {
        var data = try Data(contentsOf: URL(fileURLWithPath: mp3))
        let start = Int(Double(data.count) * fraction)
        let end = min(data.count, start + count)
        for i in start..<end { data[i] = 0 }
        if forgingHeader, end - start > 288 {
            let forged = end - 288
            data.replaceSubrange(forged..<forged + 4, with: [0xFF, 0xFB, 0x58, 0xC4])
            var x: UInt32 = 12345
            for i in forged + 4..<end {
                x = (x &* 1_103_515_245 &+ 12345) & 0x7fff_ffff
                data[i] = UInt8((x >> 16) & 0xff)
            }
        }
        let p = path((forgingHeader ? "forged-" : "corrupt-") + URL(fileURLWithPath: mp3).lastPathComponent)
        _ = FileManager.default.createFile(atPath: p, contents: data)
        return p
    }

    private func encode(_ wav: String, _ name: String) throws -> String {
        let mp3 = path(name + ".mp3")
        try Shell.run(["lame", "--quiet", "-V2", wav, mp3])
        return mp3
    }
}
