import AudioFormats
import Foundation
import Testing

/// Ogg Vorbis, Opus and Ogg FLAC files made by oggenc, vorbiscomment, opusenc and flac: stream facts, exact
/// lengths from the last page, tags, pictures, chained and damaged files, and how little is read.
struct OggReaderTests {
    @Test(arguments: [(44100, 2, 44100 * 2 + 333), (22050, 1, 7777), (48000, 6, 4800)])
    func vorbisLengthIsTheLastGranule(rate: Int, channels: Int, samples: Int) throws {
        let s = try Scratch()
        try s.tone("t.wav", rate: rate, channels: channels, samples: samples)
        try s.run("oggenc", ["-Q", "-q", "2", "-o", "t.ogg", "t.wav"])
        let info = try OggReader.read(MemorySource(try s.bytes("t.ogg")))
        #expect(info.container == .ogg && info.codec == .vorbis)
        #expect(info.sampleRate == rate && info.channels == channels && info.bitsPerSample == nil)
        #expect(info.samples == Int64(samples))
        #expect(info.encoderDelay == 0 && info.bitrate > 0)
        #expect(info.problems.isEmpty, "\(info.problems)")
    }

    @Test func vorbisTagsFromOggencAndVorbiscomment() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 4410)
        try s.run(
            "oggenc",
            [
                "-Q", "-t", "Tïtle", "-a", "One", "-l", "Album", "-N", "3/12", "-c", "ALBUMARTIST=AA", "-o", "t.ogg",
                "t.wav",
            ])
        try s.run(
            "vorbiscomment",
            [
                "-a", "-t", "ARTIST=Two", "-t", "replaygain_track_gain=-6.50 dB", "-t", "MUSICBRAINZ_TRACKID=rec",
                "t.ogg",
            ])
        let info = try OggReader.read(MemorySource(try s.bytes("t.ogg")))
        #expect(info.first(.title) == "Tïtle")
        #expect(info.values(.artist) == ["One", "Two"])
        #expect(info.first(.album) == "Album" && info.first(.albumArtist) == "AA")
        #expect(info.first(.trackNumber) == "3/12")
        #expect(info.first(.replayGainTrackGain) == "-6.50 dB")
        #expect(info.first(.musicBrainzTrackID) == "rec")
        #expect(info.samples == 4410, "vorbiscomment rewrote the header pages; the tail is the same")
    }

    @Test(arguments: [(48000, 2, 48000 + 123), (48000, 1, 960 * 7), (44100, 2, 44100)])
    func opusLengthIsTheLastGranuleLessThePreSkip(rate: Int, channels: Int, samples: Int) throws {
        let s = try Scratch()
        try s.tone("t.wav", rate: rate, channels: channels, samples: samples)
        try s.run("opusenc", ["--quiet", "t.wav", "t.opus"])
        let info = try OggReader.read(MemorySource(try s.bytes("t.opus")))
        #expect(info.codec == .opus && info.sampleRate == 48000 && info.channels == channels)
        #expect(info.samples == Int64(samples * 48000 / rate), "the input's length at 48 kHz")
        #expect(info.encoderDelay == 312, "opusenc's pre-skip")
        #expect(info.outputGainQ78 == 0)
        #expect(info.problems.isEmpty, "\(info.problems)")
        #expect(info.first(.other("ENCODER"))?.hasPrefix("opusenc") == true)
    }

    @Test func opusTagsAndPicture() throws {
        let s = try Scratch()
        try s.tone("t.wav", rate: 48000, samples: 4800)
        let image = try FLACReaderTests.image(s, "front.png")
        try s.run(
            "opusenc",
            [
                "--quiet", "--title", "T", "--artist", "A1", "--artist", "A2", "--comment", "R128_TRACK_GAIN=-300",
                "--comment", "compilation=1", "--picture", "3|image/png|front||front.png", "t.wav", "t.opus",
            ])
        let info = try OggReader.read(MemorySource(try s.bytes("t.opus")))
        #expect(info.first(.title) == "T" && info.values(.artist) == ["A1", "A2"])
        #expect(info.first(.r128TrackGain) == "-300" && info.first(.compilation) == "1")
        #expect(info.pictures == [Picture(location: .bytes(image), mime: "image/png", type: 3)])
        #expect(info.samples == 4800)
    }

    @Test func opusOutputGainIsReported() throws {
        let s = try Scratch()
        try s.tone("t.wav", rate: 48000, samples: 4800)
        try s.run("opusenc", ["--quiet", "t.wav", "t.opus"])
        var bytes = try s.bytes("t.opus")
        // OpusHead's gain (bytes 16–17 of the packet) set to -2.5 dB, and the page's checksum made again.
        let head = try #require(find(Array("OpusHead".utf8), in: bytes))
        bytes[head + 16] = 0x80
        bytes[head + 17] = 0xFD
        bytes.replaceSubrange(22..<26, with: [0, 0, 0, 0])
        let pageLength = 27 + Int(bytes[26]) + bytes[27..<(27 + Int(bytes[26]))].reduce(0) { $0 + Int($1) }
        bytes.replaceSubrange(22..<26, with: le32(Int(oggCRC(bytes[0..<pageLength]))))
        let info = try OggReader.read(MemorySource(bytes))
        #expect(info.outputGainQ78 == -640 && info.problems.isEmpty)
    }

    @Test func oggFLAC() throws {
        let s = try Scratch()
        try s.tone("t.wav", rate: 44100, channels: 2, bits: 24, samples: 44100 + 5)
        let image = try FLACReaderTests.image(s, "front.png")
        try s.run(
            "flac",
            ["--silent", "--ogg", "-T", "TITLE=Og", "-T", "ARTIST=X", "--picture=front.png", "-o", "t.oga", "t.wav"])
        let info = try OggReader.read(MemorySource(try s.bytes("t.oga")))
        #expect(info.codec == .flac && info.container == .ogg)
        #expect(info.sampleRate == 44100 && info.channels == 2 && info.bitsPerSample == 24)
        #expect(info.samples == Int64(44100 + 5))
        #expect(info.first(.title) == "Og" && info.first(.artist) == "X")
        #expect(info.pictures == [Picture(location: .bytes(image), mime: "image/png", type: 3)])
        #expect(info.problems.isEmpty, "\(info.problems)")
    }

    @Test func aChainedFileGivesTheFirstStreamsLength() throws {
        let s = try Scratch()
        try s.tone("a.wav", samples: 3000)
        try s.tone("b.wav", samples: 9000)
        try s.run("oggenc", ["-Q", "-s", "1", "-o", "a.ogg", "a.wav"])
        try s.run("oggenc", ["-Q", "-s", "2", "-o", "b.ogg", "b.wav"])
        let info = try OggReader.read(MemorySource(try s.bytes("a.ogg") + s.bytes("b.ogg")))
        #expect(info.samples == 3000 && info.problems.isEmpty)
    }

    @Test func damagedPagesAreSkippedAndCutFilesSaySo() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 44100 * 3)
        try s.run("oggenc", ["-Q", "-o", "t.ogg", "t.wav"])
        let bytes = try s.bytes("t.ogg")
        // The last page damaged: it is skipped, the page before gives a shorter length, and no end is found.
        var last = bytes
        last[last.count - 10] ^= 0x55
        let info = try OggReader.read(MemorySource(last))
        #expect((info.samples ?? 0) > 0 && (info.samples ?? 0) < 44100 * 3)
        #expect(info.problems.map(\.kind) == ["damaged"])
        // Cut in half: the same, from the middle.
        let half = try OggReader.read(MemorySource(Array(bytes[..<(bytes.count / 2)])))
        #expect((half.samples ?? 0) < 44100 * 3 && half.problems.count == 1)
        // Junk in front is searched past, as libogg does.
        let junk = try OggReader.read(MemorySource(Array(repeating: 0x4F, count: 5000) + bytes))
        #expect(junk.samples == Int64(44100 * 3))
    }

    @Test func bigFilesAreReadByTheirHeadersAndTail() throws {
        let s = try Scratch()
        try s.run("sox", ["-r", "48000", "-c", "2", "-n", "-b", "16", "n.wav", "synth", "30", "whitenoise"])
        try s.run("opusenc", ["--quiet", "--bitrate", "256", "n.wav", "n.opus"])
        try s.run("oggenc", ["-Q", "-q", "8", "-o", "n.ogg", "n.wav"])
        for name in ["n.opus", "n.ogg"] {
            let bytes = try s.bytes(name)
            let source = TallySource(bytes)
            let info = try OggReader.read(source)
            #expect(info.samples == Int64(48000 * 30))
            #expect(bytes.count > 500_000)
            #expect(
                source.bytesRead <= 64 << 10 && source.reads <= 6,
                "\(name): \(source.reads) reads, \(source.bytesRead) bytes, \(source.ranges)")
            let bitrate = bytes.count * 8 / 30 / 1000
            #expect(abs(info.bitrate - bitrate) <= bitrate / 50 + 1, "\(info.bitrate) vs \(bitrate)")
        }
    }

    @Test func otherFilesAreRefused() throws {
        let s = try Scratch()
        try s.tone("t.wav", samples: 4410)
        try s.run("oggenc", ["-Q", "-o", "t.ogg", "t.wav"])
        let bytes = try s.bytes("t.ogg")
        #expect(
            failure { () throws(FormatError) in try OggReader.read(MemorySource(Array("RIFF....WAVE".utf8))) }?.kind
                == "not-audio")
        // The second page alone: not the start of a stream.
        let second = try #require(find(Array("OggS".utf8), in: Array(bytes[4...]))) + 4
        #expect(
            failure { () throws(FormatError) in try OggReader.read(MemorySource(Array(bytes[second...]))) }?.kind
                == "damaged")
        // A first packet no codec here knows.
        var speex = bytes
        speex.replaceSubrange(28..<35, with: Array("Speex  ".utf8))
        speex.replaceSubrange(22..<26, with: [0, 0, 0, 0])
        let pageLength = 27 + Int(speex[26]) + speex[27..<(27 + Int(speex[26]))].reduce(0) { $0 + Int($1) }
        speex.replaceSubrange(22..<26, with: le32(Int(oggCRC(speex[0..<pageLength]))))
        #expect(failure { () throws(FormatError) in try OggReader.read(MemorySource(speex)) }?.kind == "unsupported")
    }

    @Test func mangledFilesNeverTrap() throws {
        let s = try Scratch()
        try s.tone("t.wav", rate: 48000, samples: 4800)
        _ = try FLACReaderTests.image(s, "front.png")
        try s.run("oggenc", ["-Q", "-t", "x", "-o", "t.ogg", "t.wav"])
        try s.run("opusenc", ["--quiet", "--title", "x", "--picture", "front.png", "t.wav", "t.opus"])
        try s.run("flac", ["--silent", "--ogg", "-T", "TITLE=x", "-o", "t.oga", "t.wav"])
        for name in ["t.ogg", "t.opus", "t.oga"] {
            for variant in mangled(try s.bytes(name)) {
                if let info = try? OggReader.read(MemorySource(variant)) {
                    #expect((info.samples ?? 0) >= 0 && info.sampleRate > 0 && info.channels > 0)
                }
            }
        }
    }
}

/// libogg's page checksum, written out plainly here to check the reader's table-driven one.
func oggCRC(_ page: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0
    for byte in page {
        crc ^= UInt32(byte) << 24
        for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
    }
    return crc
}
