import Foundation
import Podcasts
import Testing

struct EpisodeFileNameTests {
    static func item(_ title: String, guid: String = "g", url: String = "https://x/e.mp3", type: String? = "audio/mpeg", date: String? = "2024-03-05T23:30:00Z") -> FeedItem {
        FeedItem(guid: guid, title: title, published: date.flatMap(FeedDates.iso8601), enclosure: Enclosure(url: url, type: type))
    }

    @Test func datePrefixTitleTagAndExtension() {
        let name = EpisodeFileName.make(for: Self.item("Episode 12: The Chase"))
        #expect(name.hasPrefix("2024-03-05 Episode 12 The Chase "))
        #expect(name.hasSuffix(".mp3"))
        #expect(name == EpisodeFileName.make(for: Self.item("Episode 12: The Chase")), "stable")
        #expect(name != EpisodeFileName.make(for: Self.item("Episode 12: The Chase", guid: "other")), "unique per guid")
        #expect(EpisodeFileName.make(for: Self.item("x", date: nil)).hasPrefix("undated x "))
    }

    @Test func nothingUnsafeSurvives() {
        let hostile = "../..//.hidden\u{0}\u{7}\u{1B}[31m a\\b:c*d?e\"f<g>h|i\u{85}j\u{202E}k\t\nend   "
        let name = EpisodeFileName.make(for: Self.item(hostile))
        #expect(!name.contains("/") && !name.contains("\\"))
        #expect(!name.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) || $0 == "\u{202E}" })
        #expect(!name.hasPrefix("."))
        let folder = EpisodeFileName.folder(forShow: "..")
        #expect(folder == "Podcast")
        #expect(EpisodeFileName.folder(forShow: " .Hidden Show. ") == "Hidden Show")
        #expect(EpisodeFileName.folder(forShow: "///", fallback: "feeds.example.com") == "feeds.example.com")
    }

    @Test func lengthIsBoundedInBytesBetweenCharacters() {
        let long = String(repeating: "\u{1F3A7}e\u{301}", count: 200)
        let name = EpisodeFileName.make(for: Self.item(long))
        #expect(name.utf8.count <= EpisodeFileName.maxBytes)
        #expect(EpisodeDownloader.partName(name).utf8.count <= 255)
        #expect(name.hasSuffix(".mp3"))
        #expect(String(decoding: Array(name.utf8), as: UTF8.self) == name, "valid UTF-8")
        let folder = EpisodeFileName.folder(forShow: String(repeating: "\u{E9}", count: 300))
        #expect(folder.utf8.count <= EpisodeFileName.maxBytes)
    }

    @Test func extensionFromPathThenType() {
        #expect(EpisodeFileName.fileExtension(url: "https://x/a/b.M4A?token=1.mp3", type: "audio/mpeg") == "m4a")
        #expect(EpisodeFileName.fileExtension(url: "https://x/download?id=3", type: "audio/ogg") == "ogg")
        #expect(EpisodeFileName.fileExtension(url: "https://x/file.php", type: "audio/x-m4a") == "m4a")
        #expect(EpisodeFileName.fileExtension(url: "https://x.mp3/", type: nil) == "mp3")
        #expect(EpisodeFileName.fileExtension(url: "https://x/y.opus#t=3", type: nil) == "opus")
    }
}

struct OPMLTests {
    static let gpodder = """
        <?xml version="1.0" encoding="utf-8"?>
        <opml version="2.0">
          <head><title>gPodder subscriptions</title></head>
          <body>
            <outline text="News">
              <outline text="Daily &amp; More" title="Daily &amp; More" type="rss" xmlUrl="https://a.example/feed" htmlUrl="https://a.example/"/>
              <outline text="Tech">
                <outline text="Deep" type="rss" xmlURL="https://b.example/rss"/>
              </outline>
            </outline>
            <outline text="Loose" type="rss" xmlurl=" https://c.example/atom "/>
            <outline text="Duplicate" type="rss" xmlUrl="https://a.example/feed"/>
            <outline text="A folder with nothing"/>
          </body>
        </opml>
        """

    @Test func importNestedOutlines() throws {
        let subs = try OPML.parse(Data(Self.gpodder.utf8))
        #expect(subs == [
            .init(feedURL: "https://a.example/feed", title: "Daily & More", siteURL: "https://a.example/", categories: ["News"]),
            .init(feedURL: "https://b.example/rss", title: "Deep", categories: ["News", "Tech"]),
            .init(feedURL: "https://c.example/atom", title: "Loose"),
        ])
    }

    @Test func exportReadsBack() throws {
        let subs: [OPML.Subscription] = [
            .init(feedURL: "https://a.example/feed?x=1&y=\"2\"", title: "Tom & Jerry <live>\n", siteURL: "https://a.example/"),
            .init(feedURL: "https://b.example/rss", title: ""),
        ]
        let text = OPML.export(subs, created: Date(timeIntervalSince1970: 0))
        #expect(text.contains("<opml version=\"2.0\">"))
        #expect(text.contains("<dateCreated>Thu, 01 Jan 1970 00:00:00 +0000</dateCreated>"))
        #expect(text.contains("type=\"rss\""))
        let back = try OPML.parse(Data(text.utf8))
        #expect(back.map(\.feedURL) == subs.map(\.feedURL))
        #expect(back[0].title == "Tom & Jerry <live>", "trimmed on import")
        #expect(back[0].siteURL == "https://a.example/")
        #expect(back[1].title == "https://b.example/rss", "an untitled feed is named by its URL")
    }

    @Test func notOPML() {
        #expect(throws: OPML.ImportError.notOPML(root: "rss")) { try OPML.parse(Data("<rss/>".utf8)) }
        #expect(throws: OPML.ImportError.self) { try OPML.parse(Data("not xml".utf8)) }
    }
}
