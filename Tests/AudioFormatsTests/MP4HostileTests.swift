import Foundation
import Testing

@testable import AudioFormats

/// The MP4 reader on broken and lying files: every truncation and thousands of byte flips of real
/// files, and hand-made atoms whose sizes and counts lie. None may trap, hang or allocate what a size
/// field claims; each ends in a `FormatError` or a result with problems.
@Suite(.serialized) struct MP4HostileTests {
    /// A small real file with everything in it: tags, a cover, chapters in both forms.
    static func richFile(faststart: Bool) throws -> [UInt8] {
        let bench = try MP4Workbench()
        _ = try MP4ChapterTests.book(bench, name: "b.m4a", options: faststart ? ["-movflags", "+faststart"] : [])
        let file = bench.path("b.m4a")
        try bench.mutagen(
            file,
            """
            f = MP4(path)
            f["©ART"] = ["A", "B"]
            f["trkn"] = [(1, 2)]
            f["covr"] = [MP4Cover(b"\\xff\\xd8\\xff\\xd9", imageformat=MP4Cover.FORMAT_JPEG)]
            f["----:com.apple.iTunes:iTunSMPB"] = [MP4FreeForm(b" 00000000 00000400 00000000 0000000000010000")]
            f.save()
            """)
        return try bench.bytes(file)
    }

    /// What must hold of any result: sorted chapters, pictures inside the file, no negative counts.
    static func check(_ info: AudioFileInfo, size: Int) {
        #expect(info.chapters.map(\.startMS) == info.chapters.map(\.startMS).sorted())
        for picture in info.pictures {
            if case .range(let r) = picture.location { #expect(r.lowerBound >= 0 && r.upperBound <= size) }
        }
        #expect((info.samples ?? 0) >= 0 && info.encoderDelay >= 0 && info.padding >= 0 && info.bitrate >= 0)
        #expect(info.sampleRate > 0 && info.channels > 0)
    }

    @Test(arguments: [false, true])
    func everyTruncationReadsOrFails(faststart: Bool) throws {
        let bytes = try Self.richFile(faststart: faststart)
        var read = 0
        for n in 0..<bytes.count {
            let source = CountingSource(Array(bytes[..<n]))
            if let info = try? MP4Reader.read(source) {
                read += 1
                Self.check(info, size: n)
            }
            #expect(source.pastTheEnd.isEmpty, "reads past the end of \(n) bytes: \(source.pastTheEnd)")
        }
        // moov last: only the whole file has all of moov. moov first: every cut after moov still reads.
        #expect(faststart ? read > bytes.count / 2 : read < bytes.count / 2)
    }

    @Test(arguments: [false, true])
    func byteFlipsNeverTrap(faststart: Bool) throws {
        let bytes = try Self.richFile(faststart: faststart)
        var rng = SplitMix(seed: faststart ? 1 : 2)
        for _ in 0..<3000 {
            var b = bytes
            for _ in 0..<(1 + Int(rng.next() % 8)) {
                let at = Int(rng.next() % UInt64(b.count))
                b[at] = rng.next() % 4 == 0 ? 0xFF : UInt8(truncatingIfNeeded: rng.next())
            }
            let source = CountingSource(b)
            if let info = try? MP4Reader.read(source) { Self.check(info, size: b.count) }
            #expect(source.pastTheEnd.isEmpty, "reads past the end: \(source.pastTheEnd)")
        }
    }

    @Test func aHugeMoovIsRefusedUnread() throws {
        let ftyp = MP4Bytes.atom("ftyp", Array("M4A ".utf8) + [0, 0, 0, 0] + Array("M4A isom".utf8))
        let source = CountingSource(
            ftyp + MP4Bytes.be32(0x4000_0010) + Array("moov".utf8) + [UInt8](repeating: 0, count: 64))
        #expect(throws: FormatError("unsupported", "the moov atom is 1024 MiB, over the 64 MiB limit")) {
            try MP4Reader.read(source)
        }
        #expect(source.bytesRead < 200)
    }

    /// An `ftyp` claiming more than the file holds: its brands are read from what is there.
    @Test func aLongFtypIsReadToTheEndOfTheFileOnly() throws {
        let source = CountingSource(
            MP4Bytes.be32(300) + Array("ftypM4A ".utf8) + [0, 0, 0, 0] + Array("M4A isom".utf8))
        #expect(throws: FormatError.self) { try MP4Reader.read(source) }
        #expect(source.pastTheEnd.isEmpty, "\(source.pastTheEnd)")
    }

    @Test func topLevelLies() throws {
        let ftyp = MP4Bytes.atom("ftyp", Array("M4A ".utf8) + [0, 0, 0, 0] + Array("M4A isom".utf8))
        func kind(_ bytes: [UInt8]) -> String? {
            do {
                _ = try MP4Reader.read(MemorySource(bytes))
                return nil
            } catch { return error.kind }
        }
        let frees = (0..<5000).flatMap { _ in MP4Bytes.atom("free", []) }
        #expect(kind(ftyp + frees) == "damaged", "8-byte atoms without end")
        #expect(
            kind(ftyp + MP4Bytes.be32(1) + Array("mdat".utf8) + [0x7F] + [UInt8](repeating: 0xFF, count: 7))
                == "damaged")
        #expect(kind(ftyp + MP4Bytes.be32(4) + Array("mdat".utf8)) == "damaged", "a size under its header")
        #expect(kind(ftyp + MP4Bytes.atom("moov", [])) == "not-audio", "no audio track")
        #expect(kind(ftyp + MP4Bytes.atom("mdat", [1, 2, 3])) == "damaged", "no moov")
        #expect(kind(ftyp + [0xDE, 0xAD, 0xBE, 0xEF, 1, 2, 3, 4]) == "damaged", "garbage after ftyp")
        #expect(kind([]) == "damaged" || kind([]) == "not-audio")
    }

    /// A 64-bit `mdat` size (`size == 1`) before `moov` is stepped over like any other.
    @Test func aLargesizeMdatIsSteppedOver() throws {
        let real = try Self.richFile(faststart: true)
        let info = try MP4Reader.read(MemorySource(real))
        let moovAt = try #require(MP4Bytes.find("moov", in: real)) - 4
        let mdatAt = try #require(MP4Bytes.find("mdat", in: real)) - 4
        let moovSize = Int(real[moovAt..<moovAt + 4].reduce(0) { $0 << 8 | UInt32($1) })
        let payload = Array(real[(mdatAt + 8)...])
        let large = MP4Bytes.be32(1) + Array("mdat".utf8) + MP4Bytes.be32(0) + MP4Bytes.be32(UInt32(16 + payload.count))
        // moov moved after the large mdat; its chunk offsets no longer matter to tags and length.
        let file = Array(real[..<moovAt]) + large + payload + Array(real[moovAt..<moovAt + moovSize])
        let moved = try MP4Reader.read(MemorySource(file))
        #expect(moved.samples == info.samples && moved.tags == info.tags)
    }

    @Test func audioSpecificConfigs() {
        let he = MP4AudioSpecificConfig([0x2B, 0x92, 0x08, 0x00][...])
        #expect(he.sbr && he.coreSampleRate == 22050 && he.outputSampleRate == 44100 && he.channels == 2)
        #expect(he.objectType == 2 && he.frameLength == 2048)
        let compatible = MP4AudioSpecificConfig([0x13, 0x90, 0x56, 0xE5, 0xA5, 0x48, 0x80][...])
        #expect(compatible.sbr && compatible.parametricStereo && compatible.outputSampleRate == 44100)
        let ps = MP4AudioSpecificConfig([0xEB, 0x09, 0x88, 0x00][...])
        #expect(ps.sbr && ps.parametricStereo && ps.channels == 1 && ps.outputSampleRate == 48000)
        let lc = MP4AudioSpecificConfig([0x11, 0x8C][...])
        #expect(!lc.sbr && lc.outputSampleRate == 48000 && lc.channels == 1 && lc.frameLength == 960)
        #expect(MP4AudioSpecificConfig([0xFF][...]).coreSampleRate == 0, "cut short: nothing, no trap")
        #expect(MP4AudioSpecificConfig([0xF8, 0xFF, 0xFF][...]).objectType == 0, "an escaped type cut short")
    }

    @Test func rescaleNeverOverflows() {
        #expect(MP4Length.rescale(1000, from: 1000, to: 44100) == 44100)
        #expect(MP4Length.rescale(918, from: 1000, to: 44100) == 40484)
        #expect(MP4Length.rescale(Int64.max, from: 1, to: 2) == Int64.max)
        #expect(MP4Length.rescale(Int64.max, from: 3, to: Int(UInt32.max)) == Int64.max)
        #expect(MP4Length.rescale(Int64.max - 1, from: Int(UInt32.max), to: Int(UInt32.max) - 1) > 0)
    }
}

/// A small deterministic generator for the flip test (the same flips on every run).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
