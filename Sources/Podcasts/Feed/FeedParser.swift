// RSS 2.0 (with the iTunes podcast tags), RSS 1.0 and Atom into a `Feed`, over Foundation's XMLParser
// (libxml2's SAX parser underneath): entities, CDATA, character encodings and namespaces are the XML
// parser's; this file only maps elements to fields. Elements are told apart by namespace URI, not by
// prefix, so a feed that binds the iTunes namespace to `itunes2:` or makes Atom its default reads the same.
// External entities are never loaded. Pure: bytes in, a value or a typed error out.
public import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

public enum FeedParser {
    /// The largest feed `parse` reads when the caller gives no cap.
    public static let defaultCap = 16 << 20

    /// Parses a feed document. Throws `FeedError` (one line each): larger than `cap`, not XML, XML whose root
    /// is not a feed, or a feed broken part way.
    public static func parse(_ data: Data, cap: Int = defaultCap) throws(FeedError) -> Feed {
        guard data.count <= cap else { throw .tooLarge(size: data.count, cap: cap) }
        // As valid UTF-8 without its declaration (see XMLInput: ill-formed UTF-8 traps XMLParser); blank
        // lines before the declaration, a common template slip, are dropped with it.
        let body = XMLInput.utf8(data)
        guard body.contains(UInt8(ascii: "<")) else { throw .notXML(reason: "no markup") }
        let reader = FeedReader()
        let parser = XMLParser(data: body)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        // XMLParser runs libxml2 in recovery mode, and `parse()` says true whatever happened: the error, if
        // any, is in `parserError`. Namespace errors (an undeclared prefix, libxml2's codes 200-299) are
        // common in real feeds and harmless here: the feed stands.
        _ = parser.parse()
        if let root = reader.rejectedRoot { throw .notAFeed(root: root) }
        guard let feed = reader.finish() else {
            throw .notXML(reason: Self.reason(reader.firstError?.code ?? (parser.parserError as NSError?)?.code ?? -1))
        }
        if let error = reader.firstError { throw .malformed(line: max(error.line, 1), reason: Self.reason(error.code)) }
        return feed
    }

    /// libxml2's error codes (XMLParser passes them through) for the mistakes seen in real feeds.
    static func reason(_ code: Int) -> String {
        switch code {
        case 4: "the document is empty or does not start with markup"
        case 5: "the document ends too early"
        case 9: "a character that XML does not allow"
        case 23: "an unfinished entity or character reference"
        case 26: "an undeclared entity"
        case 27, 33, 34, 36, 37, 38: "a broken comment, processing instruction or declaration"
        case 39, 40, 41, 65: "a broken attribute"
        case 68, 73: "a start tag not closed"
        case 76: "an end tag that does not match its start tag"
        case 77: "the document ends inside an element"
        case 5...200: "XML error \(code)"
        default: "unreadable XML"
        }
    }
}

/// The namespaces whose elements a feed's fields come from.
enum NS: Sendable {
    case none, rss1, atom, atom03, itunes, content, dc, media, rdf, other

    static func of(_ uri: String?) -> NS {
        guard let uri, !uri.isEmpty else { return .none }
        switch uri {
        case "http://www.w3.org/2005/Atom": return .atom
        case "http://purl.org/atom/ns#": return .atom03
        case "http://purl.org/rss/1.0/": return .rss1
        case "http://purl.org/rss/1.0/modules/content/": return .content
        case "http://purl.org/dc/elements/1.1/": return .dc
        case "http://search.yahoo.com/mrss/", "http://search.yahoo.com/mrss": return .media
        case "http://www.w3.org/1999/02/22-rdf-syntax-ns#": return .rdf
        default:
            // Apple's own documents spell the iTunes namespace in several cases.
            return uri.lowercased() == "http://www.itunes.com/dtds/podcast-1.0.dtd" ? .itunes : .other
        }
    }
}

/// XMLParser's delegate: follows where it is (channel, item, image, author) and keeps the text of the
/// elements that are fields. Used by one parse on one thread, then dropped.
final class FeedReader: NSObject, XMLParserDelegate {
    var format: Feed.Format?
    var rejectedRoot: String?
    private var feed = Feed(format: .rss2)
    private var item: FeedItem?
    private var itemAudioEnclosure = false
    private var depth = 0
    private var itemDepth = -1
    /// Depth of the channel `image` (RSS 2.0) or top-level `image` (RSS 1.0), of an `author` or `source`.
    private var imageDepth = -1
    private var authorDepth = -1
    private var sourceDepth = -1
    /// The element whose text is being kept, and its depth (-1: none). Elements inside it add their text.
    private var capture: (ns: NS, name: String)?
    private var captureDepth = -1
    private var text = ""
    private var nsCache: [String: NS] = [:]
    /// Atom `content`/`summary` of the entry, RSS `description`/`itunes:summary` (the richest one wins).
    private var itemContent: String?
    private var itemDescription: String?
    private var itemSummary: String?
    private var itemPublished: String?
    private var itemUpdated: String?
    private var channelSummary: String?
    private var channelCreator: String?

    /// The first error libxml2 reported that is not about namespaces: its code and line.
    var firstError: (code: Int, line: Int)?

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        let code = (parseError as NSError).code
        if firstError == nil, !(200..<300).contains(code) { firstError = (code, parser.lineNumber) }
    }

    private func ns(_ uri: String?) -> NS {
        guard let uri, !uri.isEmpty else { return .none }
        if let known = nsCache[uri] { return known }
        let found = NS.of(uri)
        nsCache[uri] = found
        return found
    }

    func finish() -> Feed? {
        guard let format else { return nil }
        feed.format = format
        if feed.description == nil { feed.description = channelSummary }
        if feed.author == nil { feed.author = channelCreator }
        return feed
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        if capture != nil { return }  // markup inside a field (Atom xhtml content): its text joins the field
        let space = ns(namespaceURI)
        guard format != nil else {
            switch (space, name) {
            case (.none, "rss"): format = .rss2
            case (.rdf, "RDF"): format = .rss1
            case (.atom, "feed"), (.atom03, "feed"): format = .atom
            default:
                rejectedRoot = qualifiedName ?? name
                parser.abortParsing()
            }
            return
        }
        let isRSSName = space == .none || space == .rss1
        let isAtom = space == .atom || space == .atom03
        if item == nil {
            if (isRSSName && name == "item") || (isAtom && name == "entry") {
                item = FeedItem()
                itemDepth = depth
                itemAudioEnclosure = false
                itemContent = nil
                itemDescription = nil
                itemSummary = nil
                itemPublished = nil
                itemUpdated = nil
                return
            }
            // The channel image's title and link, and a text input's, are not the show's.
            if isRSSName && (name == "image" || name == "textInput" || name == "textinput") && imageDepth < 0 {
                imageDepth = depth
                return
            }
            if isAtom && name == "author" && authorDepth < 0 { authorDepth = depth; return }
            if space == .itunes && name == "image", let href = attributes["href"]?.trimmed, !href.isEmpty {
                feed.imageURL = href
                return
            }
            if isAtom && name == "link" {
                let rel = attributes["rel"] ?? "alternate"
                if rel == "alternate", feed.link == nil, let href = attributes["href"]?.trimmed { feed.link = href }
                return
            }
        } else {
            if isAtom && (name == "source" || name == "author") && sourceDepth < 0 { sourceDepth = depth; return }
            if sourceDepth >= 0 { return }
            switch (space, name) {
            case (.none, "enclosure"), (.rss1, "enclosure"):
                enclosure(attributes["url"], attributes["length"], attributes["type"])
                return
            case (.media, "content"):
                if item?.enclosure == nil { enclosure(attributes["url"], attributes["fileSize"], attributes["type"]) }
                return
            case (.atom, "link"), (.atom03, "link"):
                let href = attributes["href"]?.trimmed ?? ""
                switch attributes["rel"] ?? "alternate" {
                case "enclosure": enclosure(href, attributes["length"], attributes["type"])
                case "alternate": if item?.link == nil, !href.isEmpty { item?.link = href }
                default: break
                }
                return
            case (.itunes, "image"):
                if let href = attributes["href"]?.trimmed, !href.isEmpty { item?.imageURL = href }
                return
            default: break
            }
        }
        if Self.isField(space, name) {
            capture = (space, name)
            captureDepth = depth
            text = ""
        }
    }

    /// Elements whose text is a field somewhere (where decides which at the end tag).
    static func isField(_ space: NS, _ name: String) -> Bool {
        switch space {
        case .none, .rss1:
            switch name {
            case "title", "link", "description", "language", "url", "guid", "pubDate", "managingEditor": true
            default: false
            }
        case .atom, .atom03:
            switch name {
            case "title", "subtitle", "tagline", "logo", "icon", "name", "id", "published", "updated", "issued",
                "modified", "summary", "content":
                true
            default: false
            }
        case .itunes:
            switch name {
            case "author", "summary", "duration", "episode", "season": true
            default: false
            }
        case .content: name == "encoded"
        case .dc: name == "date" || name == "creator" || name == "language"
        default: false
        }
    }

    private func enclosure(_ url: String?, _ length: String?, _ type: String?) {
        guard let url = url?.trimmed, !url.isEmpty else { return }
        var mime = type?.trimmed.lowercased()
        if let semicolon = mime?.firstIndex(of: ";") { mime = String(mime![..<semicolon]).trimmed }
        let found = Enclosure(url: url, length: length.flatMap { Int64($0.trimmed) }.flatMap { $0 > 0 ? $0 : nil }, type: mime)
        // The first audio enclosure wins; a non-audio one holds the place until an audio one comes.
        if item?.enclosure == nil || (!itemAudioEnclosure && found.isAudio) {
            item?.enclosure = found
            itemAudioEnclosure = found.isAudio
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capture != nil { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        if capture != nil { text += String(decoding: block, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer { depth -= 1 }
        if let field = capture {
            guard depth == captureDepth else { return }
            capture = nil
            captureDepth = -1
            let value = text.trimmed
            text = ""
            if item != nil { itemField(field.ns, field.name, value) } else { feedField(field.ns, field.name, value) }
            return
        }
        if depth == itemDepth, var done = item {
            finishItem(&done)
            feed.items.append(done)
            item = nil
            itemDepth = -1
        } else if depth == imageDepth {
            imageDepth = -1
        } else if depth == authorDepth {
            authorDepth = -1
        } else if depth == sourceDepth {
            sourceDepth = -1
        }
    }

    private func feedField(_ space: NS, _ name: String, _ value: String) {
        guard !value.isEmpty else { return }
        if imageDepth >= 0 {
            if name == "url", feed.imageURL == nil { feed.imageURL = value }
            return
        }
        if authorDepth >= 0 {
            if name == "name", feed.author == nil { feed.author = value }
            return
        }
        switch (space, name) {
        case (.none, "title"), (.rss1, "title"), (.atom, "title"), (.atom03, "title"):
            if feed.title.isEmpty { feed.title = value }
        case (.none, "link"), (.rss1, "link"):
            if feed.link == nil { feed.link = value }
        case (.none, "description"), (.rss1, "description"), (.atom, "subtitle"), (.atom03, "tagline"):
            if feed.description == nil { feed.description = value }
        case (.itunes, "summary"): channelSummary = channelSummary ?? value
        case (.none, "language"), (.dc, "language"): feed.language = feed.language ?? value
        case (.itunes, "author"): feed.author = value
        case (.none, "managingEditor"), (.dc, "creator"): channelCreator = channelCreator ?? value
        case (.atom, "logo"), (.atom03, "logo"): feed.imageURL = value
        case (.atom, "icon"): if feed.imageURL == nil { feed.imageURL = value }
        default: break
        }
    }

    private func itemField(_ space: NS, _ name: String, _ value: String) {
        guard !value.isEmpty else { return }
        switch (space, name) {
        case (.none, "title"), (.rss1, "title"), (.atom, "title"), (.atom03, "title"):
            if item?.title.isEmpty ?? false { item?.title = value }
        case (.none, "link"), (.rss1, "link"): if item?.link == nil { item?.link = value }
        case (.none, "guid"), (.atom, "id"), (.atom03, "id"): if item?.guid.isEmpty ?? false { item?.guid = value }
        case (.none, "pubDate"), (.dc, "date"), (.atom, "published"), (.atom03, "issued"):
            itemPublished = itemPublished ?? value
        case (.atom, "updated"), (.atom03, "modified"): itemUpdated = itemUpdated ?? value
        case (.content, "encoded"), (.atom, "content"), (.atom03, "content"): itemContent = itemContent ?? value
        case (.none, "description"), (.rss1, "description"), (.atom, "summary"), (.atom03, "summary"):
            itemDescription = itemDescription ?? value
        case (.itunes, "summary"): itemSummary = itemSummary ?? value
        case (.itunes, "duration"): item?.duration = FeedDates.duration(value)
        case (.itunes, "episode"): item?.episode = Int(value).flatMap { $0 >= 0 ? $0 : nil }
        case (.itunes, "season"): item?.season = Int(value).flatMap { $0 >= 0 ? $0 : nil }
        default: break
        }
    }

    private func finishItem(_ done: inout FeedItem) {
        done.summary = itemContent ?? itemDescription ?? itemSummary
        if let date = itemPublished ?? itemUpdated {
            done.dateText = date
            done.published = FeedDates.parse(date)
        }
        if done.guid.isEmpty {
            done.guid = done.enclosure?.url ?? done.link ?? (done.title.isEmpty ? "" : done.title + "|" + (done.dateText ?? ""))
        }
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
