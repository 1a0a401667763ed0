import Foundation
import Podcasts
import Testing

struct FeedParserTests {
    static func date(_ text: String) -> Date { FeedDates.iso8601(text)! }

    @Test func rssWithITunesTags() throws {
        let feed = try FeedParser.parse(Data(FeedSamples.rssITunes.utf8))
        #expect(feed.format == .rss2)
        #expect(feed.title == "Tom & Jerry\u{2019}s Show")
        #expect(feed.link == "https://example.com/show")
        #expect(feed.description == "A show about <b>cats</b> & mice.")
        #expect(feed.language == "en-gb")
        #expect(feed.author == "Tom Cat")
        #expect(feed.imageURL == "https://example.com/art.jpg", "itunes:image wins over image/url")
        #expect(feed.items.count == 3, "items without audio are kept")
        let ep = feed.items[0]
        #expect(ep.title == "Episode 12: The <Chase>")
        #expect(ep.guid == "show-ep-12")
        #expect(ep.published == Self.date("2024-03-05T07:30:00Z"))
        #expect(ep.enclosure == Enclosure(url: "https://cdn.example.com/ep12.mp3?source=rss", length: 12_345_678, type: "audio/mpeg"))
        #expect(ep.duration == 3723)
        #expect(ep.episode == 12)
        #expect(ep.season == 2)
        #expect(ep.summary == "<p>Full <i>notes</i></p>", "content:encoded is the richest")
        #expect(ep.imageURL == "https://example.com/ep12.jpg")
        #expect(ep.isDownloadable)
        let video = feed.items[1]
        #expect(video.published == Self.date("2024-03-04T15:00:00Z"), "EST is -5 h; no seconds")
        #expect(video.duration == 3570)
        #expect(!video.isDownloadable, "video is not audio")
        let post = feed.items[2]
        #expect(post.enclosure == nil && !post.isDownloadable)
        #expect(post.guid == "https://example.com/post", "no guid: the link stands in")
        #expect(post.summary == "No audio here")
    }

    @Test func atomFeed() throws {
        let feed = try FeedParser.parse(Data(FeedSamples.atom.utf8))
        #expect(feed.format == .atom)
        #expect(feed.title == "Atom Cast")
        #expect(feed.description == "Talk in Atom")
        #expect(feed.link == "https://atom.example/")
        #expect(feed.author == "Anna Atom")
        #expect(feed.imageURL == "https://atom.example/logo.png")
        #expect(feed.items.count == 2)
        let first = feed.items[0]
        #expect(first.guid == "tag:atom.example,2024:1")
        #expect(first.title == "First entry")
        #expect(first.link == "https://atom.example/1")
        #expect(first.enclosure == Enclosure(url: "https://atom.example/1.ogg", length: 4242, type: "audio/ogg"))
        #expect(first.published == Date(timeIntervalSince1970: Self.date("2024-05-01T06:15:30Z").timeIntervalSince1970 + 0.5))
        #expect(first.summary?.contains("Hello") == true && first.summary?.contains("bold") == true, "xhtml content's text")
        let second = feed.items[1]
        #expect(second.title == "Second entry", "a source's title is not the entry's")
        #expect(second.published == Self.date("2024-04-30T00:00:00Z"), "updated stands in for published")
        #expect(!second.isDownloadable)
    }

    @Test func namespacesUnderOtherPrefixesAndLatin1() throws {
        let feed = try FeedParser.parse(FeedSamples.oddPrefixLatin1)
        #expect(feed.title == "Caf\u{E9} Radio")
        #expect(feed.author == "Z\u{FC}rich", "dc:creator when there is no itunes:author")
        #expect(feed.items[0].title == "\u{C9}pisode")
        #expect(feed.items[0].duration == 3600)
        #expect(feed.items[0].published == Self.date("2024-01-01T00:59:59Z"))
        #expect(feed.items[0].guid == "http://x.example/a", "no guid: the enclosure's URL")
        #expect(!feed.items[0].isDownloadable, "octet-stream and no audio extension")
        #expect(feed.items[1].duration == 5400)
        #expect(feed.items[1].isDownloadable, "no type: the path's .m4a says audio")
    }

    @Test func rss1() throws {
        let feed = try FeedParser.parse(Data(FeedSamples.rss1.utf8))
        #expect(feed.format == .rss1)
        #expect(feed.title == "RDF Show")
        #expect(feed.items.map(\.title) == ["One"])
        #expect(feed.items[0].published == Self.date("2002-09-01T12:00:00Z"))
    }

    @Test func missingFieldsLeaveNils() throws {
        let feed = try FeedParser.parse(Data("<rss><channel><item><enclosure url=' u.mp3 '/></item><item/></channel></rss>".utf8))
        #expect(feed.title == "")
        #expect(feed.items.count == 2)
        #expect(feed.items[0].enclosure?.url == "u.mp3")
        #expect(feed.items[0].published == nil && feed.items[0].duration == nil && feed.items[0].episode == nil)
        #expect(feed.items[1].guid == "")
    }

    @Test func leadingBlankLinesAreForgiven() throws {
        let feed = try FeedParser.parse(Data("\n\n  <?xml version=\"1.0\"?><rss><channel><title>T</title></channel></rss>".utf8))
        #expect(feed.title == "T")
    }

    @Test func errorsAreTypedWithOneLine() {
        func error(_ text: String, cap: Int = 1 << 20) -> FeedError? {
            do {
                _ = try FeedParser.parse(Data(text.utf8), cap: cap)
                return nil
            } catch {
                return error
            }
        }
        #expect(error("{\"json\": true}") == .notXML(reason: "no markup"))
        #expect(error("") == .notXML(reason: "no markup"))
        if case .notXML = error("<<<>>> not xml") {} else { Issue.record("garbage: \(String(describing: error("<<<>>> not xml")))") }
        #expect(error("<html><body>Not found</body></html>") == .notAFeed(root: "html"))
        #expect(error("<?xml version='1.0'?><opml version='2.0'/>") == .notAFeed(root: "opml"))
        #expect(error("<rss><channel><title>x</title>", cap: 100) != nil)
        if case .malformed(let line, _) = error("<rss>\n<channel>\n<title>x</titel>\n</channel></rss>") {
            #expect(line == 3)
        } else {
            Issue.record("a broken feed is malformed")
        }
        #expect(error(String(repeating: " ", count: 200), cap: 100) == .tooLarge(size: 200, cap: 100))
        for e in [FeedError.notXML(reason: "r"), .notAFeed(root: "html"), .malformed(line: 3, reason: "r"), .tooLarge(size: 2, cap: 1)] {
            #expect(!e.description.contains("\n") && !e.description.isEmpty)
        }
    }

    /// Two inputs that took the whole process down inside Foundation's XMLParser (found by the fuzz target,
    /// contrib/fuzz/README.md): a name with a byte that is not UTF-8, and a processing instruction with no data.
    @Test func inputsThatTrappedXMLParserAreRefusedOrRead() throws {
        var notUTF8 = Data("<rss><channel><title>A".utf8)
        notUTF8 += Data([0xCB]) + Data("</title><s".utf8) + Data([0xCB]) + Data("tit/></channel></rss>".utf8)
        let feed = try FeedParser.parse(notUTF8)
        #expect(feed.title == "A\u{FFFD}")
        #expect(throws: FeedError.self) { try FeedParser.parse(Data([0x3C, 0x73, 0xCB, 0x74, 0x69, 0x74])) }
        let instructions = try FeedParser.parse(Data("<?xm?>\n<rss><?pi?><channel><title>T<?x?></title></channel></rss>".utf8))
        #expect(instructions.title == "T")
        #expect(throws: OPML.ImportError.self) { try OPML.parse(Data("<?a?><opml><body><?b?><outline xmlUrl='u'/>".utf8)) }
    }

    @Test func externalEntitiesAreNotLoaded() throws {
        let secret = FileManager.default.temporaryDirectory.appending(path: "podcast-secret-\(getpid())").path
        try "SECRET".write(toFile: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: secret) }
        let text = """
            <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY x SYSTEM "file://\(secret)">]>
            <rss><channel><title>a&x;b</title></channel></rss>
            """
        if let feed = try? FeedParser.parse(Data(text.utf8)) {
            #expect(!feed.title.contains("SECRET"))
        }
    }

    @Test func bigFeedParsesWhole() throws {
        let feed = try FeedParser.parse(Data(FeedSamples.big(500).utf8))
        #expect(feed.items.count == 500)
        #expect(feed.items.allSatisfy { $0.isDownloadable })
        #expect(Set(feed.items.map(\.guid)).count == 500)
    }
}

struct FeedDatesTests {
    static func utc(_ text: String) -> Date { FeedDates.iso8601(text)! }

    @Test(arguments: [
        ("Tue, 05 Mar 2024 07:30:00 +0000", "2024-03-05T07:30:00Z"),
        ("Tue, 05 Mar 2024 07:30:00 GMT", "2024-03-05T07:30:00Z"),
        ("05 Mar 2024 07:30:00 GMT", "2024-03-05T07:30:00Z"),
        ("Tue, 5 Mar 2024 07:30 +0100", "2024-03-05T06:30:00Z"),
        ("Tue, 05 March 2024 07:30:00 PST", "2024-03-05T15:30:00Z"),
        ("Tue, 05 Mar 24 07:30:00 EDT", "2024-03-05T11:30:00Z"),
        ("Tue,05 Mar 2024 07:30:00 +01:00", "2024-03-05T06:30:00Z"),
        ("Tue, 05 Mar 2024 07:30:00 -0530", "2024-03-05T13:00:00Z"),
        ("Tue, 05 Mar 2024 07:30:00 +0000 (UTC)", "2024-03-05T07:30:00Z"),
        ("Tuesday, 05-Mar-2024 07:30:00 UT", "2024-03-05T07:30:00Z"),
        ("Tue, 05 Sept 2023 07:30:00 Z", "2023-09-05T07:30:00Z"),
        ("Mar 5, 2024 7:30 PM", "2024-03-05T19:30:00Z"),
        ("tue, 05 mar 2024 07:30:00", "2024-03-05T07:30:00Z"),
        ("Wed, 05 Mar 2024 07:30:00 +0000", "2024-03-05T07:30:00Z"),  // a wrong weekday is ignored
        ("2024-03-05T07:30:00Z", "2024-03-05T07:30:00Z"),
        ("2024-03-05T07:30:00.000-05:00", "2024-03-05T12:30:00Z"),
        ("2024-03-05 07:30:00", "2024-03-05T07:30:00Z"),
        ("2024-03-05", "2024-03-05T00:00:00Z"),
        ("Thu, 29 Feb 1996 23:59:59 +0000", "1996-02-29T23:59:59Z"),
    ])
    func dates(_ text: String, _ expected: String) {
        #expect(FeedDates.parse(text) == Self.utc(expected), "\(text)")
    }

    @Test(arguments: ["", "yesterday", "Tue, 45 Mar 2024 07:30:00 GMT", "Tue, 05 Foo 2024", "2024-13-01", "12:00", "Tue, 05 Mar 2024 25:00:00"])
    func notDates(_ text: String) {
        #expect(FeedDates.parse(text) == nil, "\(text)")
    }

    @Test func durations() {
        #expect(FeedDates.duration("3600") == 3600)
        #expect(FeedDates.duration(" 12.5 ") == 12.5)
        #expect(FeedDates.duration("45:07") == 2707)
        #expect(FeedDates.duration("01:02:03") == 3723)
        #expect(FeedDates.duration("1:02:03.5") == 3723.5)
        for bad in ["", "1:2:3:4", "-5", "abc", "1h", ":30", "10:"] {
            #expect(FeedDates.duration(bad) == nil, "\(bad)")
        }
    }
}
