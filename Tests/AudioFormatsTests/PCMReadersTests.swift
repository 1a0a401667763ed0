import AudioFormats
import Foundation
import Testing

/// WAV and AIFF files made by sox and ffmpeg: the sample format, the exact frame count, and the sample
/// range holding exactly the bytes sox decodes to (the PCM decoder plays that range as is).
struct PCMReadersTests {
    static let frames = 22050 + 7

    /// The file's samples as raw bytes in the given encoding and byte order, decoded by sox.
    func raw(_ s: Scratch, _ name: String, encoding: String, bits: Int, bigEndian: Bool) throws -> [UInt8] {
        try s.run("sox", [name, "-t", "raw", "-e", encoding, "-b", "\(bits)", bigEndian ? "-B" : "-L", name + ".raw"])
        return try s.bytes(name + ".raw")
    }

    @Test(arguments: [(16, false), (24, false), (32, false), (32, true), (64, true)])
    func wavSampleFormats(bits: Int, float: Bool) throws {
        let s = try Scratch()
        let encoding = float ? "floating-point" : "signed-integer"
        try s.tone("t.wav", rate: 48000, channels: 2, bits: bits, samples: Self.frames, extra: ["-e", encoding])
        let bytes = try s.bytes("t.wav")
        let info = try RIFFReader.read(MemorySource(bytes))
        #expect(info.container == .wav && info.codec == .pcm)
        #expect(info.sampleRate == 48000 && info.channels == 2 && info.bitsPerSample == bits)
        #expect(info.isFloat == float && !info.bigEndian)
        #expect(info.samples == Int64(Self.frames))
        #expect(info.problems.isEmpty)
        let range = try #require(info.dataRange)
        #expect(Array(bytes[range]) == (try raw(s, "t.wav", encoding: encoding, bits: bits, bigEndian: false)))
        #expect(info.bitrate == 48000 * 2 * bits / 1000)
    }

    @Test func wavInfoTagsFromFFmpeg() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 1000)
        let tags = [
            "title": "Tïtle", "artist": "The Artist", "album": "An Album", "genre": "Jazz", "comment": "A comment",
            "date": "2024", "track": "3",
        ]
        try s.run(
            "ffmpeg",
            ["-loglevel", "error", "-i", "t.wav"] + tags.flatMap { ["-metadata", "\($0)=\($1)"] } + ["o.wav"])
        let info = try RIFFReader.read(MemorySource(try s.bytes("o.wav")))
        #expect(info.first(.title) == "Tïtle")
        #expect(info.first(.artist) == "The Artist")
        #expect(info.first(.album) == "An Album")
        #expect(info.first(.genre) == "Jazz")
        #expect(info.first(.comment) == "A comment")
        #expect(info.first(.date) == "2024")
        #expect(info.first(.trackNumber) == "3")
        #expect(info.first(.other("ISFT"))?.hasPrefix("Lavf") == true)
        #expect(info.samples == 1000)
    }

    @Test func wavStreamedToAPipeRunsToTheEnd() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 5000)
        let piped = try s.run("sh", ["-c", "ffmpeg -loglevel error -i t.wav -f wav - > p.wav && xxd -l 8 -s 4 p.wav"])
        #expect(piped.contains("ffff ffff"), "ffmpeg left the sizes unset: \(piped)")
        let info = try RIFFReader.read(MemorySource(try s.bytes("p.wav")))
        #expect(info.samples == 5000)
        #expect(info.dataRange?.upperBound == (try s.bytes("p.wav")).count)
    }

    @Test func rf64ExtensibleFloat() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 3001)
        try s.run("ffmpeg", ["-loglevel", "error", "-i", "t.wav", "-c:a", "pcm_f32le", "-rf64", "always", "r.wav"])
        let bytes = try s.bytes("r.wav")
        #expect(Array(bytes[0..<4]) == Array("RF64".utf8))
        let info = try RIFFReader.read(MemorySource(bytes))
        #expect(info.isFloat && info.bitsPerSample == 32 && info.samples == 3001)
        let range = try #require(info.dataRange)
        #expect(range.count == 3001 * 8)
    }

    @Test func wavID3ChunkIsFound() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 100)
        var bytes = try s.bytes("t.wav")
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 11] + Array("TIT2".utf8) + [0, 0, 0, 1, 0, 0, 3]
        let chunkStart = bytes.count + 8
        bytes += Array("id3 ".utf8) + le32(tag.count) + tag + (tag.count % 2 == 1 ? [0] : [])
        bytes.replaceSubrange(4..<8, with: le32(bytes.count - 8))
        let info = try RIFFReader.read(MemorySource(bytes))
        #expect(info.id3Range == chunkStart..<(chunkStart + tag.count))
        #expect(info.samples == 100)
    }

    @Test func oddSizedChunksArePadded() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 100)
        var bytes = try s.bytes("t.wav")
        let data = try #require(find(Array("data".utf8), in: bytes))
        bytes.insert(contentsOf: Array("junk".utf8) + le32(3) + [1, 2, 3, 0], at: data)
        bytes.replaceSubrange(4..<8, with: le32(bytes.count - 8))
        let info = try RIFFReader.read(MemorySource(bytes))
        #expect(info.samples == 100 && info.dataRange?.lowerBound == data + 12 + 8)
    }

    @Test(arguments: ["pcm_mulaw", "adpcm_ms"])
    func wavCodecsNotPlayedAreUnsupported(codec: String) throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 2000)
        try s.run("ffmpeg", ["-loglevel", "error", "-i", "t.wav", "-c:a", codec, "o.wav"])
        let bytes = try s.bytes("o.wav")
        #expect(failure { () throws(FormatError) in try RIFFReader.read(MemorySource(bytes)) }?.kind == "unsupported")
    }

    @Test func aWavCutInHalfLosesItsTailWithAProblem() throws {
        let s = try Scratch()
        try s.tone("t.wav", channels: 1, samples: 10000)
        let bytes = try s.bytes("t.wav")
        let info = try RIFFReader.read(MemorySource(Array(bytes[..<(bytes.count / 2 + 1)])))
        #expect(info.samples == Int64((bytes.count / 2 + 1 - 44) / 2))
        #expect(info.problems.map(\.kind) == ["damaged"])
    }

    @Test(arguments: [
        ("aiff", "pcm_s16be", 16, true, false), ("aiff", "pcm_s24be", 24, true, false),
        ("aiff", "pcm_s32be", 32, true, false), ("aiff", "pcm_s16le", 16, false, false),
        ("aiff", "pcm_f32be", 32, true, true), ("aiff", "pcm_f64be", 64, true, true),
    ])
    func aiffFromFFmpeg(format: String, codec: String, bits: Int, bigEndian: Bool, float: Bool) throws {
        let s = try Scratch()
        try s.tone("t.wav", rate: 44100, channels: 2, samples: Self.frames)
        try s.run("ffmpeg", ["-loglevel", "error", "-i", "t.wav", "-c:a", codec, "-f", format, "o.aiff"])
        let bytes = try s.bytes("o.aiff")
        let info = try AIFFReader.read(MemorySource(bytes))
        #expect(info.container == .aiff && info.codec == .pcm)
        #expect(info.sampleRate == 44100 && info.channels == 2 && info.bitsPerSample == bits)
        #expect(info.bigEndian == bigEndian && info.isFloat == float)
        #expect(info.samples == Int64(Self.frames))
        #expect(info.problems.isEmpty)
        let range = try #require(info.dataRange)
        let encoding = float ? "floating-point" : "signed-integer"
        #expect(Array(bytes[range]) == (try raw(s, "o.aiff", encoding: encoding, bits: bits, bigEndian: bigEndian)))
    }

    @Test(arguments: ["aiff", "aifc"])
    func aiffFromSox(suffix: String) throws {
        let s = try Scratch()
        try s.tone("t.\(suffix)", rate: 22050, channels: 1, bits: 24, samples: 12345)
        let bytes = try s.bytes("t.\(suffix)")
        let info = try AIFFReader.read(MemorySource(bytes))
        #expect(info.sampleRate == 22050 && info.channels == 1 && info.bitsPerSample == 24 && info.bigEndian)
        #expect(info.samples == 12345)
        let range = try #require(info.dataRange)
        #expect(
            Array(bytes[range]) == (try raw(s, "t.\(suffix)", encoding: "signed-integer", bits: 24, bigEndian: true)))
    }

    @Test func aiffTextChunksAndID3() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 500)
        try s.run(
            "ffmpeg",
            [
                "-loglevel", "error", "-i", "t.wav", "-metadata", "title=Name", "-metadata", "author=Auth",
                "-metadata", "comment=Note", "-metadata", "copyright=2024 Me", "-write_id3v2", "1", "o.aiff",
            ])
        let bytes = try s.bytes("o.aiff")
        let info = try AIFFReader.read(MemorySource(bytes))
        #expect(info.first(.title) == "Name")
        #expect(info.first(.artist) == "Auth")
        #expect(info.first(.comment) == "Note")
        #expect(info.first(.other("COPYRIGHT")) == "2024 Me")
        let id3 = try #require(info.id3Range)
        #expect(Array(bytes[id3.prefix(3)]) == Array("ID3".utf8))
        #expect(info.samples == 500)
    }

    @Test func aiffCompressionsNotPlayedAreUnsupported() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 2000)
        try s.run("ffmpeg", ["-loglevel", "error", "-i", "t.wav", "-c:a", "pcm_alaw", "o.aiff"])
        let bytes = try s.bytes("o.aiff")
        #expect(failure { () throws(FormatError) in try AIFFReader.read(MemorySource(bytes)) }?.kind == "unsupported")
    }

    @Test func otherFilesAreNotAudio() throws {
        for bytes in [[], Array("RIFF\0\0\0\0AVI LIST".utf8), Array("FORM\0\0\0\u{4}8SVX".utf8)] as [[UInt8]] {
            #expect(failure { () throws(FormatError) in try RIFFReader.read(MemorySource(bytes)) }?.kind == "not-audio")
            #expect(failure { () throws(FormatError) in try AIFFReader.read(MemorySource(bytes)) }?.kind == "not-audio")
        }
    }

    @Test func mangledFilesNeverTrap() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 300)
        try s.run(
            "ffmpeg", ["-loglevel", "error", "-i", "t.wav", "-metadata", "title=x", "-write_id3v2", "1", "t.aiff"])
        try s.run("ffmpeg", ["-loglevel", "error", "-i", "t.wav", "-metadata", "title=x", "o.wav"])
        let readers: [(String, (MemorySource) throws -> AudioFileInfo)] = [
            ("o.wav", { try RIFFReader.read($0) }), ("t.aiff", { try AIFFReader.read($0) }),
        ]
        for (name, read) in readers {
            let bytes = try s.bytes(name)
            for variant in mangled(bytes) {
                if let info = try? read(MemorySource(variant)), let range = info.dataRange {
                    #expect(range.lowerBound >= 0 && range.upperBound <= variant.count)
                    #expect((info.samples ?? 0) >= 0)
                }
            }
        }
    }
}

func le32(_ n: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: n >> (8 * $0)) } }
