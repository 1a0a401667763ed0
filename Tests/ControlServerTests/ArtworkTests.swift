import ClickWheelTestKit
import ControlServer
import Foundation
import Testing

/// albumart and readpicture as Home Assistant reads them (python-mpd2 looping over the chunks),
/// checked byte for byte against the cover file and against the picture mutagen finds in the tag.
@Suite(.serialized) struct ArtworkTests {
    @Test func pythonMPD2ReadsCoversAndEmbeddedPictures() throws {
        let f = try ServerFixture()
        let script = """
            import mpd, json, sys, hashlib
            from mutagen.id3 import ID3
            music = sys.argv[2]
            c = mpd.MPDClient()
            c.connect(sys.argv[1])
            out = {}
            art = c.albumart("Artist Name/Album Name/07 Some Title.mp3")
            out["albumart"] = hashlib.sha1(art["binary"]).hexdigest() == hashlib.sha1(open(music + "/Artist Name/Album Name/cover.jpg", "rb").read()).hexdigest()
            pic = c.readpicture("Tag Formats/id3v2.3 utf16.mp3")
            apic = ID3(music + "/Tag Formats/id3v2.3 utf16.mp3").getall("APIC")[0]
            out["readpicture"] = pic["binary"] == apic.data and pic["type"] == "image/png"
            out["nopicture"] = c.readpicture("Durations/01 CBR Info.mp3")
            c.binarylimit(64)
            out["chunked"] = c.readpicture("Tag Formats/id3v2.3 utf16.mp3")["binary"] == apic.data
            for call in (lambda: c.albumart("Durations/01 CBR Info.mp3"), lambda: c.readpicture("Nope.mp3"),
                         lambda: c.albumart("Artist Name/Album Name")):
                try:
                    call()
                except mpd.CommandError as e:
                    out.setdefault("errors", []).append(str(e))
            print(json.dumps(out))
            """
        let out = try f.run("python3", ["-c", script, f.socket, ServerFixture.music])
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
        #expect(json["albumart"] as? Bool == true)
        #expect(json["readpicture"] as? Bool == true)
        #expect((json["nopicture"] as? [String: Any])?.isEmpty == true)
        #expect(json["chunked"] as? Bool == true)
        #expect(json["errors"] as? [String] == [
            "[50@0] {albumart} No file exists", "[50@0] {readpicture} No such song", "[50@0] {albumart} No file exists",
        ])
    }

    @Test func chunksFollowTheOffsetAndTheLimit() throws {
        let f = try ServerFixture()
        let c = try RawClient(f.socket)
        _ = c.response()
        let size = try FileManager.default.attributesOfItem(atPath: ServerFixture.music + "/Artist Name/Album Name/cover.jpg")[.size] as! Int
        #expect(c.roundTrip("binarylimit 63") == "ACK [2@0] {binarylimit} Value too small\n")
        #expect(c.roundTrip("binarylimit 16777216") == "ACK [2@0] {binarylimit} Number too large: 16777216\n")
        #expect(c.roundTrip("binarylimit 64") == "OK\n")
        let first = c.roundTrip("albumart \"Artist Name/Album Name/07 Some Title.mp3\" 0")
        #expect(first.hasPrefix("size: \(size)\nbinary: 64\n"))
        let end = c.roundTrip("albumart \"Artist Name/Album Name/07 Some Title.mp3\" \(size)")
        #expect(end == "size: \(size)\nbinary: 0\n\nOK\n")
        #expect(c.roundTrip("albumart \"Artist Name/Album Name/07 Some Title.mp3\" \(size + 1)") == "ACK [2@0] {albumart} Offset too large\n")
        #expect(c.roundTrip("config") == "music_directory: \(ServerFixture.music)\nOK\n")
    }
}
