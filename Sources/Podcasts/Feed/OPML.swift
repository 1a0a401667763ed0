// OPML subscription lists: import what gPodder, AntennaPod, Pocket Casts and Overcast export (outlines with
// `xmlUrl`, possibly inside category outlines), export OPML 2.0 that they read back.
public import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

public enum OPML {
    public struct Subscription: Sendable, Hashable {
        public var feedURL: String
        /// `title`, else `text`; may be empty.
        public var title: String
        /// `htmlUrl`, the show's page.
        public var siteURL: String?
        /// The titles of the outlines around it (folders), outermost first.
        public var categories: [String]

        public init(feedURL: String, title: String = "", siteURL: String? = nil, categories: [String] = []) {
            self.feedURL = feedURL
            self.title = title
            self.siteURL = siteURL
            self.categories = categories
        }
    }

    public enum ImportError: Error, Sendable, Hashable, CustomStringConvertible {
        case tooLarge(size: Int, cap: Int)
        case notXML(reason: String)
        case notOPML(root: String)

        public var description: String {
            switch self {
            case .tooLarge(let size, let cap): "the OPML file is \(size) bytes, more than the limit of \(cap)"
            case .notXML(let reason): "not an OPML file: \(reason)"
            case .notOPML(let root): "XML but not OPML (its root element is <\(root)>)"
            }
        }
    }

    /// The subscriptions of an OPML document, in document order, each feed URL once (the first kept).
    /// Outlines without `xmlUrl` are folders; their titles become `categories` of what they hold.
    public static func parse(_ data: Data, cap: Int = 4 << 20) throws(ImportError) -> [Subscription] {
        guard data.count <= cap else { throw .tooLarge(size: data.count, cap: cap) }
        let reader = OPMLReader()
        let parser = XMLParser(data: XMLInput.utf8(data))  // valid UTF-8 only: see XMLInput
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        _ = parser.parse()  // true whatever happened (libxml2's recovery mode): the error is in parserError
        if let root = reader.rejectedRoot { throw .notOPML(root: root) }
        let code = (parser.parserError as NSError?)?.code
        guard reader.sawRoot, code == nil || (200..<300).contains(code!) else {
            throw .notXML(reason: FeedParser.reason(code ?? -1))
        }
        return reader.found
    }

    /// An OPML 2.0 document listing `subscriptions` (`type="rss"` outlines with `text`, `title`, `xmlUrl` and
    /// `htmlUrl`), flat: categories are not written (AntennaPod ignores them; gPodder reads only flat lists).
    public static func export(_ subscriptions: [Subscription], title: String = "ClickWheel podcasts", created: Date = Date()) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
              <head>
                <title>\(escape(title))</title>
                <dateCreated>\(rfc822(created))</dateCreated>
              </head>
              <body>

            """
        for sub in subscriptions {
            let name = escape(sub.title.isEmpty ? sub.feedURL : sub.title)
            out += "    <outline type=\"rss\" text=\"\(name)\" title=\"\(name)\" xmlUrl=\"\(escape(sub.feedURL))\""
            if let site = sub.siteURL, !site.isEmpty { out += " htmlUrl=\"\(escape(site))\"" }
            out += "/>\n"
        }
        out += "  </body>\n</opml>\n"
        return out
    }

    /// Text for an XML attribute or element: the five markup characters escaped, line breaks and tabs as
    /// character references (kept in attributes), other characters XML 1.0 forbids dropped.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;"
            case 0x3C: out += "&lt;"
            case 0x3E: out += "&gt;"
            case 0x22: out += "&quot;"
            case 0x27: out += "&apos;"
            case 0x09: out += "&#9;"
            case 0x0A: out += "&#10;"
            case 0x0D: out += "&#13;"
            case 0..<0x20, 0xFFFE, 0xFFFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func rfc822(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let ymd = EpisodeFileName.datePrefix(date).split(separator: "-").compactMap { Int($0) }
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let rest = seconds - days * 86_400
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let weekday = weekdays[((days % 7) + 7) % 7]
        return "\(weekday), \(two(ymd[2])) \(months[ymd[1] - 1]) \(ymd[0]) \(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60)) +0000"
    }
}

final class OPMLReader: NSObject, XMLParserDelegate {
    var found: [OPML.Subscription] = []
    var sawRoot = false
    var rejectedRoot: String?
    private var seen: Set<String> = []
    /// For each open outline: the folder title it adds (nil for a feed outline or an untitled one).
    private var folders: [String?] = []

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if !sawRoot {
            sawRoot = true
            if name.lowercased() != "opml" {
                rejectedRoot = name
                parser.abortParsing()
            }
            return
        }
        guard name == "outline" else { return }
        // Attribute names as exporters spell them: xmlUrl, xmlURL, xmlurl.
        var lower: [String: String] = [:]
        for (key, value) in attributes { lower[key.lowercased()] = value }
        let title = (lower["title"] ?? lower["text"] ?? "").trimmed
        if let url = lower["xmlurl"]?.trimmed, !url.isEmpty {
            folders.append(nil)
            guard seen.insert(url).inserted else { return }
            let site = lower["htmlurl"]?.trimmed
            found.append(
                OPML.Subscription(
                    feedURL: url, title: title, siteURL: site?.isEmpty == false ? site : nil,
                    categories: folders.compactMap { $0 }))
        } else {
            folders.append(title.isEmpty ? nil : title)
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "outline", !folders.isEmpty { folders.removeLast() }
    }
}
