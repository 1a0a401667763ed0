import Foundation
import Testing

@testable import AudioFormats

/// MP4 chapters as ffmpeg writes them from an ffmetadata file: to both a QuickTime chapter track (a text
/// track named by the audio track's `tref/chap`) and Nero's `moov/udta/chpl`. The reader prefers the
/// track and falls back on `chpl`.
@Suite(.serialized) struct MP4ChapterTests {
    static let chapters = [
        FormatChapter(startMS: 0, title: "Opening"), FormatChapter(startMS: 1250, title: "Kapitel Über"),
        FormatChapter(startMS: 2500, title: "終わり"),
    ]

    /// An AAC `.m4b` of 3 s with the three chapters above.
    static func book(_ bench: MP4Workbench, name: String = "book.m4b", options: [String] = []) throws -> [UInt8] {
        let wav = try bench.tone(samples: 3 * 22050, rate: 22050, channels: 1)
        var metadata = ";FFMETADATA1\ntitle=Book\n"
        for (i, chapter) in chapters.enumerated() {
            let end = i + 1 < chapters.count ? chapters[i + 1].startMS : 3000
            metadata += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(chapter.startMS)\nEND=\(end)\ntitle=\(chapter.title)\n"
        }
        try Data(metadata.utf8).write(to: URL(fileURLWithPath: bench.path("chapters.txt")))
        try bench.ffmpeg(
            [
                "-i", wav, "-i", bench.path("chapters.txt"), "-map", "0", "-map_metadata", "1", "-map_chapters", "1",
                "-c:a", "aac", "-b:a", "32k",
            ] + options + [bench.path(name)])
        return try bench.bytes(bench.path(name))
    }

    @Test func ffmpegWritesBothFormsAndTheyRead() throws {
        let bench = try MP4Workbench()
        let bytes = try Self.book(bench)
        #expect(MP4Bytes.find("chpl", in: bytes) != nil && MP4Bytes.find("chap", in: bytes) != nil)
        let info = try MP4Reader.read(MemorySource(bytes))
        #expect(info.chapters == Self.chapters)
        #expect(info.first(.title) == "Book")
        #expect(info.samples == Int64(3 * 22050))
        #expect(info.problems.isEmpty)
    }

    /// With the `chpl` titles changed (same length), the track's titles are the ones read.
    @Test func theChapterTrackIsPreferred() throws {
        let bench = try MP4Workbench()
        let bytes = MP4Bytes.renaming("Opening", to: "Overtur", in: try Self.book(bench))
        #expect(MP4Bytes.find("Opening", in: bytes) == nil, "chpl and the track sample both renamed")
        // Rename it back in the track's sample (in mdat, before moov) only.
        let moov = try #require(MP4Bytes.find("moov", in: bytes))
        let sample = try #require(MP4Bytes.find("Overtur", in: bytes[..<moov]))
        var file = bytes
        file.replaceSubrange(sample..<sample + 7, with: Array("Opening".utf8))
        let info = try MP4Reader.read(MemorySource(file))
        #expect(info.chapters.first?.title == "Opening")
    }

    /// Without the `tref` reference, `chpl` is read: the same chapters (its 100 ns units hold ms exactly).
    @Test func withoutAChapterTrackChplIsRead() throws {
        let bench = try MP4Workbench()
        let bytes = MP4Bytes.renaming("tref", to: "free", in: try Self.book(bench))
        let info = try MP4Reader.read(MemorySource(bytes))
        #expect(info.chapters == Self.chapters)
    }

    /// The chapter titles are small reads of the samples alone: the file is still read only in part.
    @Test func chapterTitlesAreSmallReads() throws {
        let bench = try MP4Workbench()
        let bytes = try Self.book(bench)
        let source = CountingSource(bytes)
        _ = try MP4Reader.read(source)
        let moov = try #require(MP4Bytes.find("moov", in: bytes)) - 4
        #expect(source.bytesRead < bytes.count - moov + 512)
    }

    /// `chpl` out of order is sorted; its count byte never reads past the atom.
    @Test func chplIsSortedAndBounded() throws {
        func entry(_ ms: UInt64, _ title: String) -> [UInt8] {
            let t = Array(title.utf8)
            let start = ms * 10_000
            return [56, 48, 40, 32, 24, 16, 8, 0].map { UInt8(truncatingIfNeeded: start >> UInt64($0)) } + [
                UInt8(t.count)
            ] + t
        }
        let chpl = MP4Bytes.atom(
            "chpl", [1, 0, 0, 0, 0, 0, 0, 0, 3] + entry(5000, "B") + entry(0, "A") + entry(9000, "C"))
        #expect(MP4Chapters.nero(MP4Atom(type: "chpl", payload: chpl[8...])).map(\.title) == ["A", "B", "C"])
        let lying = MP4Bytes.atom("chpl", [1, 0, 0, 0, 0, 0, 0, 0, 255] + entry(0, "A"))
        #expect(
            MP4Chapters.nero(MP4Atom(type: "chpl", payload: lying[8...])) == [FormatChapter(startMS: 0, title: "A")])
    }
}
