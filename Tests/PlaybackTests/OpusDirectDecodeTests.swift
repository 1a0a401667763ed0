import Foundation
import OpusFile
import Testing

/// `OpusFile` decodes links of one Opus stream with `opus_decode_float` on the stream itself, where
/// libopusfile would go through libopus's multistream wrapper (which runs libopus's CPU-feature probe
/// four times a packet). Files made by opusenc decode to the same floats both ways, to the last bit:
/// whole, after seeks (the stream's state is reset with libopusfile's), across a chain's links of two and
/// one channels, and with the header's output gain; surround stays libopusfile's own decode.
@Suite struct OpusDirectDecodeTests {
    /// Reads from the start (after `readsBeforeSeek` reads, a seek to `seek`) to the end of `path`:
    /// every float, each read's channel count, and how the packets were decoded.
    static func decode(_ path: String, directly: Bool, seek: Int64? = nil, readsBeforeSeek: Int = 3) throws -> (
        floats: [Float], channels: [Int], packets: (direct: Int, multistream: Int)
    ) {
        let file = try OpusFile(path: Array(path.utf8), decodesDirectly: directly)
        var buffer = [Float](repeating: 0, count: 5760 * 8)
        var floats: [Float] = []
        var channels: [Int] = []
        var reads = 0
        if let seek, readsBeforeSeek == 0 { try file.seek(toSample: seek) }
        while true {
            let (frames, link) = try buffer.withUnsafeMutableBufferPointer { b throws(OpusError) in
                try file.readFloat(into: b)
            }
            if frames == 0 { break }
            let ch = file.channels(link: link)
            floats += buffer[0..<(frames * ch)]
            channels.append(ch)
            reads += 1
            if let seek, reads == readsBeforeSeek { try file.seek(toSample: seek) }
        }
        return (floats, channels, file.decodedPackets)
    }

    /// A 48 kHz sine of `seconds` as an Opus file with `channels` (opusenc, its Ogg serial number given
    /// so that files can be chained).
    static func opus(_ fixtures: Fixtures, _ name: String, seconds: Double, channels: Int, frequency: Int, serial: Int)
        throws -> String
    {
        let wav = fixtures.path(name + ".wav")
        try Shell.run([
            "sox", "-r", "48000", "-n", "-c", "\(channels)", "-b", "16", wav, "synth", "\(seconds)", "sine",
            "\(frequency)", "vol", "0.5",
        ])
        let out = fixtures.path(name + ".opus")
        try Shell.run(["opusenc", "--quiet", "--serial", "\(serial)", wav, out])
        return out
    }

    /// Both ways from the start and after seeks, compared float for float; returns the direct packets.
    static func expectSameBothWays(_ path: String, seeks: [Int64]) throws -> Int {
        let reference = try decode(path, directly: false)
        let direct = try decode(path, directly: true)
        #expect(reference.packets.direct == 0 && reference.packets.multistream == 0)
        #expect(!direct.floats.isEmpty)
        #expect(direct.channels == reference.channels)
        #expect(direct.floats == reference.floats, "\(path): the direct decode differs from libopusfile's")
        for target in seeks {
            for before in [0, 3] {
                let r = try decode(path, directly: false, seek: target, readsBeforeSeek: before)
                let d = try decode(path, directly: true, seek: target, readsBeforeSeek: before)
                #expect(!d.floats.isEmpty)
                #expect(d.floats == r.floats, "\(path): after a seek to \(target) (\(before) reads first)")
            }
        }
        return direct.packets.direct
    }

    @Test("stereo and mono: every packet decoded on the stream, the same floats as libopusfile's, seeks too")
    func stereoAndMono() throws {
        let fixtures = try Fixtures()
        for channels in [2, 1] {
            let file = try Self.opus(fixtures, "c\(channels)", seconds: 2, channels: channels, frequency: 440, serial: 7)
            let direct = try Self.expectSameBothWays(file, seeks: [0, 1, 312, 48_000, 95_000])
            #expect(try Self.decode(file, directly: true).packets.multistream == 0)
            // 2 s of 20 ms packets, and the encoder's look-ahead: about 100 packets.
            #expect(direct >= 100)
        }
    }

    @Test("a chain of stereo, mono and stereo links: the same floats, also after seeks into each link")
    func chainedLinks() throws {
        let fixtures = try Fixtures()
        let links = [
            try Self.opus(fixtures, "l1", seconds: 1.5, channels: 2, frequency: 330, serial: 11),
            try Self.opus(fixtures, "l2", seconds: 1, channels: 1, frequency: 440, serial: 12),
            try Self.opus(fixtures, "l3", seconds: 1.5, channels: 2, frequency: 550, serial: 13),
        ]
        let chain = fixtures.path("chain.opus")
        let bytes = try links.reduce(Data()) { $0 + (try Data(contentsOf: URL(fileURLWithPath: $1))) }
        try bytes.write(to: URL(fileURLWithPath: chain))
        let whole = try Self.decode(chain, directly: true)
        #expect(Set(whole.channels) == [1, 2])
        #expect(whole.packets.multistream == 0)
        _ = try Self.expectSameBothWays(chain, seeks: [10_000, 71_000, 80_000, 125_000, 190_000])
    }

    @Test("the header's output gain reaches the stream: −6.02 dB halves the samples, as libopusfile's decode")
    func headerGain() throws {
        let fixtures = try Fixtures()
        let file = try Self.opus(fixtures, "plain", seconds: 1, channels: 2, frequency: 440, serial: 21)
        let quiet = fixtures.path("quiet.opus")
        try Self.withOutputGain(file, to: quiet, q8: -1541)  // 20·log10(0.5) dB in Q7.8
        _ = try Self.expectSameBothWays(quiet, seeks: [24_000])
        let loud = try Self.decode(file, directly: true).floats
        let half = try Self.decode(quiet, directly: true).floats
        #expect(loud.count == half.count)
        let worst = zip(loud, half).map { abs($0 / 2 - $1) }.max() ?? 1
        #expect(worst < 1e-3, "a sample is \(worst) off half")
    }

    @Test("5.1 (several streams) stays libopusfile's multistream decode")
    func surroundIsLibopusfiles() throws {
        let fixtures = try Fixtures()
        let mono = fixtures.path("mono.wav")
        try Shell.run(["sox", "-r", "48000", "-n", "-c", "1", "-b", "16", mono, "synth", "1", "sine", "440", "vol", "0.5"])
        let six = fixtures.path("six.wav")
        try Shell.run(["sox", mono, "-b", "16", six, "remix", "1", "1", "1", "0", "1", "1"])
        let file = fixtures.path("six.opus")
        try Shell.run(["opusenc", "--quiet", six, file])
        let direct = try Self.expectSameBothWays(file, seeks: [20_000])
        #expect(direct == 0)
        #expect(try Self.decode(file, directly: true).packets.multistream > 0)
    }

    /// A copy of `source` whose OpusHead says an output gain of `q8` (dB in Q7.8), its page CRC redone.
    static func withOutputGain(_ source: String, to target: String, q8: Int16) throws {
        var b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        // The first page holds the OpusHead packet alone: 27 header bytes, the segment table, the packet.
        precondition(b.count > 28 && b[0..<4] == [0x4F, 0x67, 0x67, 0x53], "not an Ogg file")
        let segments = Int(b[26])
        let head = 27 + segments
        let size = b[27..<head].reduce(0) { $0 + Int($1) }
        precondition(Array(b[head..<(head + 8)]) == Array("OpusHead".utf8), "no OpusHead first")
        let gain = UInt16(bitPattern: q8)
        b[head + 16] = UInt8(gain & 0xFF)
        b[head + 17] = UInt8(gain >> 8)
        b.replaceSubrange(22..<26, with: [0, 0, 0, 0])
        // Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, initial value and final XOR 0, over the page.
        var crc: UInt32 = 0
        for byte in b[0..<(head + size)] {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        b.replaceSubrange(22..<26, with: [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)])
        try Data(b).write(to: URL(fileURLWithPath: target))
    }
}
