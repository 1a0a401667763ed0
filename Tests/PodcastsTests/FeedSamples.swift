import Foundation

/// Feed documents written for the tests, each in the shape of a real publisher's (the tags and quirks of
/// Libsyn, Anchor, Buzzsprout, Megaphone and blog Atom feeds), not copies of them.
enum FeedSamples {
    /// RSS 2.0 with the iTunes, content and Atom namespaces, CDATA, entities, three items: an audio
    /// episode, a video one, and a blog post without an enclosure.
    static let rssITunes = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
             xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">
          <channel>
            <title>Tom &amp; Jerry&#8217;s Show</title>
            <link>https://example.com/show</link>
            <atom:link href="https://example.com/feed.xml" rel="self" type="application/rss+xml"/>
            <description><![CDATA[A show about <b>cats</b> & mice.]]></description>
            <language>en-gb</language>
            <itunes:author>Tom Cat</itunes:author>
            <itunes:image href="https://example.com/art.jpg"/>
            <image><url>https://example.com/small.jpg</url><title>Image title, not the show's</title><link>https://x</link></image>
            <item>
              <title>Episode 12: The &lt;Chase&gt;</title>
              <guid isPermaLink="false">show-ep-12</guid>
              <pubDate>Tue, 05 Mar 2024 07:30:00 +0000</pubDate>
              <enclosure url="https://cdn.example.com/ep12.mp3?source=rss" length="12345678" type="audio/mpeg"/>
              <itunes:duration>1:02:03</itunes:duration>
              <itunes:episode>12</itunes:episode>
              <itunes:season>2</itunes:season>
              <description>Short text</description>
              <itunes:summary>Summary text</itunes:summary>
              <content:encoded><![CDATA[<p>Full <i>notes</i></p>]]></content:encoded>
              <itunes:image href="https://example.com/ep12.jpg"/>
            </item>
            <item>
              <title>Video extra</title>
              <guid>https://example.com/v1</guid>
              <pubDate>Mon, 4 Mar 2024 10:00 EST</pubDate>
              <enclosure url="https://cdn.example.com/v1.mp4" length="1" type="video/mp4"/>
              <itunes:duration>59:30</itunes:duration>
            </item>
            <item>
              <title>Blog post</title>
              <link>https://example.com/post</link>
              <pubDate>Sun, 03 Mar 2024 12:00:00 GMT</pubDate>
              <description>No audio here</description>
            </item>
          </channel>
        </rss>
        """

    /// Atom 1.0 as the default namespace, with enclosure links, published and updated, xhtml content, and
    /// an entry with a `source` whose title must not win.
    static let atom = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="de">
          <title type="text">Atom Cast</title>
          <subtitle>Talk in Atom</subtitle>
          <link rel="self" href="https://atom.example/feed"/>
          <link rel="alternate" type="text/html" href="https://atom.example/"/>
          <id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>
          <updated>2024-05-02T10:00:00Z</updated>
          <author><name>Anna Atom</name></author>
          <logo>https://atom.example/logo.png</logo>
          <entry>
            <title>First entry</title>
            <link rel="alternate" href="https://atom.example/1"/>
            <link rel="enclosure" type="audio/ogg" length="4242" href="https://atom.example/1.ogg"/>
            <id>tag:atom.example,2024:1</id>
            <published>2024-05-01T08:15:30.5+02:00</published>
            <updated>2024-05-02T09:00:00Z</updated>
            <author><name>Someone else</name></author>
            <summary>Summary one</summary>
            <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Hello <b>bold</b> world</div></content>
          </entry>
          <entry>
            <source><title>Not this</title><id>src</id></source>
            <title>Second entry</title>
            <id>tag:atom.example,2024:2</id>
            <updated>2024-04-30</updated>
          </entry>
        </feed>
        """

    /// The iTunes namespace under another prefix, Atom 0.3-era dates in RSS, an ISO-8859-1 document.
    static let oddPrefixLatin1: Data = {
        let text = """
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <rss version="2.0" xmlns:it="http://www.itunes.com/DTDs/Podcast-1.0.dtd" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel><title>Caf\u{E9} Radio</title><dc:creator>Z\u{FC}rich</dc:creator>
            <item><title>\u{C9}pisode</title><it:duration>3600</it:duration><dc:date>2023-12-31T23:59:59-01:00</dc:date>
            <enclosure url="http://x.example/a" type="application/octet-stream" /></item>
            <item><title>Two</title><it:duration>90:00</it:duration>
            <enclosure url="http://x.example/b.m4a?x=1" /></item>
            </channel></rss>
            """
        return text.data(using: .isoLatin1)!
    }()

    /// RSS 1.0 (RDF): items beside the channel, not inside.
    static let rss1 = """
        <?xml version="1.0"?>
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                 xmlns:dc="http://purl.org/dc/elements/1.1/">
          <channel rdf:about="https://r1.example/"><title>RDF Show</title><link>https://r1.example/</link>
            <description>An old one</description></channel>
          <item rdf:about="https://r1.example/1"><title>One</title><link>https://r1.example/1</link>
            <dc:date>2002-09-01T12:00:00Z</dc:date></item>
        </rdf:RDF>
        """

    /// An RSS 2.0 feed of `count` audio items (the benchmark's and the size tests' input).
    static func big(_ count: Int) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:content="http://purl.org/rss/1.0/modules/content/">
            <channel><title>Big Show</title><link>https://big.example/</link><description>Many episodes</description>
            <itunes:author>Big</itunes:author><itunes:image href="https://big.example/a.jpg"/>

            """
        for n in stride(from: count, to: 0, by: -1) {
            out += """
                <item><title>Episode \(n): a title of some length &amp; more</title><guid isPermaLink="false">big-\(n)</guid>
                <pubDate>Mon, \(n % 28 + 1) Jan 2024 06:00:00 +0000</pubDate>
                <enclosure url="https://cdn.big.example/episodes/\(n).mp3" length="\(n * 1000)" type="audio/mpeg"/>
                <itunes:duration>\(n % 3):\(n % 60 < 10 ? "0" : "")\(n % 60):00</itunes:duration><itunes:episode>\(n)</itunes:episode>
                <description><![CDATA[<p>Show notes for episode \(n), with <a href="https://big.example/\(n)">links</a> and a few sentences of text to make the item the size of a real one.</p>]]></description>
                <itunes:summary>Show notes for episode \(n).</itunes:summary></item>

                """
        }
        return out + "</channel></rss>\n"
    }
}
