import Foundation
import Testing

@testable import AudioFormats

/// Vorbis comment blocks built byte by byte: field mapping, order, bad text, lying counts and lengths,
/// and pictures in `METADATA_BLOCK_PICTURE`.
struct VorbisCommentsTests {
    /// A comment block: vendor, count (the real one unless given), fields.
    static func block(vendor: String = "test", count: UInt32? = nil, _ fields: [[UInt8]]) -> [UInt8] {
        var out = le32(vendor.utf8.count) + Array(vendor.utf8)
        out += le32(Int(count ?? UInt32(fields.count)))
        for field in fields { out += le32(field.count) + field }
        return out
    }

    static func block(_ fields: [String]) -> [UInt8] { block(fields.map { Array($0.utf8) }) }

    /// A FLAC PICTURE block holding `data`.
    static func pictureBlock(type: Int = 3, mime: String = "image/png", description: String = "d", data: [UInt8])
        -> [UInt8]
    {
        be32(type) + be32(mime.utf8.count) + Array(mime.utf8) + be32(description.utf8.count) + Array(description.utf8)
            + be32(16) + be32(16) + be32(24) + be32(0) + be32(data.count) + data
    }

    @Test func fieldsMapInOrderWhateverTheirCase() {
        let c = VorbisComments(
            Self.block([
                "title=A", "Artist=B", "ARTIST=C", "tracknumber=3/12", "Weird Name=x", "noequals", "=v", "EMPTY=",
            ])[...])
        #expect(c.vendor == "test")
        #expect(
            c.tags == [
                Tag(.title, "A"), Tag(.artist, "B"), Tag(.artist, "C"), Tag(.trackNumber, "3/12"),
                Tag(.other("WEIRD NAME"), "x"),
            ])
        #expect(c.problems.isEmpty)
    }

    @Test func everyNameOfTheTableMaps() {
        for (name, key) in VorbisCommentKeys.table {
            #expect(VorbisComments(Self.block(["\(name.lowercased())=v"])[...]).tags == [Tag(key, "v")], "\(name)")
        }
        #expect(VorbisCommentKeys.key("musicbrainz_trackid") == .musicBrainzTrackID)
        #expect(VorbisCommentKeys.key("album artist") == .albumArtist)
    }

    @Test func invalidUTF8IsReplacedAndReportedOnce() {
        let bad: [UInt8] = Array("TITLE=a".utf8) + [0xFF, 0xC3] + Array("b".utf8)
        let c = VorbisComments(Self.block([bad, bad, Array("ARTIST=ok".utf8)])[...])
        #expect(c.tags.map(\.value) == ["a\u{FFFD}\u{FFFD}b", "a\u{FFFD}\u{FFFD}b", "ok"])
        #expect(c.problems.map(\.kind) == ["invalid-text"])
    }

    @Test func lyingCountsAndLengthsEndWithAProblem() {
        let many = VorbisComments(Self.block(count: .max, [Array("TITLE=a".utf8)])[...])
        #expect(many.tags == [Tag(.title, "a")])
        #expect(many.problems.map(\.kind) == ["damaged"])
        var huge = Self.block([Array("TITLE=a".utf8)])
        huge += [0xFF, 0xFF, 0xFF, 0xFF] + Array("ARTIST=b".utf8)
        huge.replaceSubrange(8..<12, with: le32(2))
        let long = VorbisComments(huge[...])
        #expect(long.tags == [Tag(.title, "a")] && long.problems.count == 1)
        let vendor = VorbisComments([0xFF, 0xFF, 0xFF, 0xFF, 1, 2][...])
        #expect(vendor.tags.isEmpty && vendor.problems.count == 1)
        #expect(VorbisComments([][...]).problems.count == 1)
    }

    @Test func picturesInBase64() throws {
        let image: [UInt8] = (0..<300).map { UInt8($0 % 251) }
        let encoded = Data(Self.pictureBlock(type: 4, mime: "image/jpeg", data: image)).base64EncodedString()
        let c = VorbisComments(Self.block(["METADATA_BLOCK_PICTURE=\(encoded)", "TITLE=t"])[...])
        #expect(c.pictures == [Picture(location: .bytes(image), mime: "image/jpeg", type: 4)])
        #expect(c.tags == [Tag(.title, "t")] && c.problems.isEmpty)

        let short = Data(Self.pictureBlock(data: image).dropLast(10)).base64EncodedString()
        let legacy = Data(image).base64EncodedString()
        let broken = VorbisComments(
            Self.block([
                "METADATA_BLOCK_PICTURE=not base64!", "METADATA_BLOCK_PICTURE=\(short)", "COVERART=\(legacy)",
                "COVERARTMIME=image/gif",
            ])[...])
        #expect(broken.problems.count == 2 && broken.problems.allSatisfy { $0.kind == "damaged" })
        #expect(broken.pictures == [Picture(location: .bytes(image), mime: "image/gif", type: 3)])
    }

    @Test func base64MatchesFoundation() {
        var state: UInt64 = 1
        for length in 0..<70 {
            let bytes: [UInt8] = (0..<length).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1
                return UInt8(truncatingIfNeeded: state >> 40)
            }
            let text = Data(bytes).base64EncodedString(options: .lineLength64Characters)
            #expect(Base64.decode(Array(text.utf8), maxBytes: 100) == bytes)
        }
        #expect(Base64.decode(Array("QUJD".utf8), maxBytes: 2) == nil, "over the cap")
        #expect(Base64.decode(Array("QQ==QQ==".utf8), maxBytes: 10) == nil, "data after padding")
        #expect(Base64.decode(Array("Q".utf8), maxBytes: 10) == nil, "a lone character")
    }
}

func be32(_ n: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: n >> (8 * $0)) } }
