import Foundation
import Testing

@testable import AudioFormats

/// Ogg Vorbis and Opus streams whose audio does not start at granule 0, as a recording of a live stream
/// has them: made from oggenc's and opusenc's files by rewriting their pages (no tool here writes such a
/// stream: oggz is not packaged, ffmpeg's Ogg muxer starts every stream at 0). Two kinds: every audio
/// granule shifted by a constant (a stream joined late, all its packets kept), and the headers followed by
/// the pages from the middle on (a recording started mid-stream, its pages renumbered as a recorder
/// writing a file of its own does). The length the reader gives must be what libvorbisfile and libopusfile
/// (oggdec, opusdec) decode from the same file, sample for sample.
struct OggStartTests {
    static let cases: [(suffix: String, rate: Int, samples: Int)] = [
        ("ogg", 44100, 44100 * 4 + 333), ("opus", 48000, 48000 * 4 + 123), ("ogg", 22050, 22050 * 3 + 7),
    ]

    @Test(arguments: 0..<3)
    func aShiftedStreamKeepsItsLength(index: Int) throws {
        let c = Self.cases[index]
        let s = try Scratch()
        let file = try Self.encode(s, c.suffix, rate: c.rate, samples: c.samples)
        let shifted = OggPages(try s.bytes(file)).shiftingGranules(by: 1_234_567_890)
        try s.write("s." + c.suffix, shifted)
        let info = try OggReader.read(MemorySource(shifted))
        #expect(info.problems.isEmpty, "\(info.problems)")
        let played = try Self.decodedSamples(s, "s." + c.suffix)
        #expect(played == Int64(c.samples * info.sampleRate / c.rate), "the decoder plays the input's length")
        #expect(info.samples == played)
    }

    @Test(arguments: 0..<3)
    func aStreamCutInTheMiddleHasTheLengthDecoded(index: Int) throws {
        let c = Self.cases[index]
        let s = try Scratch()
        let file = try Self.encode(s, c.suffix, rate: c.rate, samples: c.samples)
        let cut = OggPages(try s.bytes(file)).cutFromMiddle()
        try s.write("c." + c.suffix, cut)
        let info = try OggReader.read(MemorySource(cut))
        #expect(info.problems.isEmpty, "\(info.problems)")
        let played = try Self.decodedSamples(s, "c." + c.suffix)
        #expect(played > 0 && played < Int64(c.samples * info.sampleRate / c.rate) * 3 / 4)
        #expect(info.samples == played, "reader \(String(describing: info.samples)), decoded \(played)")
    }

    static func encode(_ s: Scratch, _ suffix: String, rate: Int, samples: Int) throws -> String {
        try s.tone("t.wav", rate: rate, channels: 2, samples: samples, extra: ["-D"])
        if suffix == "ogg" {
            try s.run("oggenc", ["-Q", "-o", "t.ogg", "t.wav"])
        } else {
            try s.run("opusenc", ["--quiet", "t.wav", "t.opus"])
        }
        return "t." + suffix
    }

    /// What libvorbisfile (oggdec) or libopusfile (opusdec) decodes from `name`, in samples per channel.
    static func decodedSamples(_ s: Scratch, _ name: String) throws -> Int64 {
        if name.hasSuffix(".ogg") {
            try s.run("oggdec", ["-Q", "-R", "-o", "d.raw", name])
        } else {
            try s.run("opusdec", ["--quiet", "--rate", "48000", name, "d.raw"])
        }
        return Int64(try s.bytes("d.raw").count / 4)  // 16-bit stereo
    }
}

/// An Ogg file's pages, rewritten with their checksums made anew.
struct OggPages {
    var pages: [[UInt8]] = []

    init(_ bytes: [UInt8]) {
        var at = 0
        while at + 27 <= bytes.count {
            let count = Int(bytes[at + 26])
            let length = 27 + count + bytes[(at + 27)..<(at + 27 + count)].reduce(0) { $0 + Int($1) }
            pages.append(Array(bytes[at..<at + length]))
            at += length
        }
    }

    static func granule(_ page: [UInt8]) -> Int64 {
        Int64(bitPattern: page[6..<14].reversed().reduce(0) { $0 << 8 | UInt64($1) })
    }

    static func setGranule(_ page: inout [UInt8], _ value: Int64) {
        for i in 0..<8 { page[6 + i] = UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> (8 * i)) }
    }

    static func sealed(_ page: [UInt8], sequence: Int? = nil) -> [UInt8] {
        var page = page
        if let sequence { for i in 0..<4 { page[18 + i] = UInt8(truncatingIfNeeded: sequence >> (8 * i)) } }
        for i in 22..<26 { page[i] = 0 }
        var crc: UInt32 = 0
        for byte in page { crc = crc << 8 ^ OggCRC.table[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ byte)] }
        for i in 0..<4 { page[22 + i] = UInt8(truncatingIfNeeded: crc >> (8 * i)) }
        return page
    }

    /// The header pages: those before the first page with a granule position above 0.
    var headerCount: Int { pages.firstIndex { Self.granule($0) > 0 } ?? pages.count }

    /// Every audio page's granule position (those above 0; -1 and the headers' 0 kept) plus `shift`.
    func shiftingGranules(by shift: Int64) -> [UInt8] {
        pages.flatMap { page in
            let granule = Self.granule(page)
            guard granule > 0 else { return page }
            var page = page
            Self.setGranule(&page, granule + shift)
            return Self.sealed(page)
        }
    }

    /// The header pages, then the pages from the first one past the middle that starts a packet of its own.
    func cutFromMiddle() -> [UInt8] {
        let headers = headerCount
        var from = headers + (pages.count - headers) / 2
        while from < pages.count - 1, pages[from][5] & 0x01 != 0 { from += 1 }
        let kept = Array(pages[..<headers]) + Array(pages[from...])
        return kept.enumerated().flatMap { Self.sealed($0.element, sequence: $0.offset) }
    }
}
