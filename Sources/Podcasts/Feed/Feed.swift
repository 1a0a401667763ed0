// The podcast feed model: what FeedParser reads out of an RSS 2.0 (with the iTunes tags), RSS 1.0 or Atom
// document. Plain values; URLs are kept as the feed wrote them (trimmed), resolved by whoever fetches them.
public import Foundation

/// A parsed podcast feed: the show and its items, in document order (feeds usually list newest first).
public struct Feed: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable {
        case rss2, rss1, atom
    }

    public var format: Format
    /// The show's title; empty when the feed gives none (the caller names it from the URL).
    public var title: String
    /// The show's web page (RSS `link`, Atom `link rel="alternate"`).
    public var link: String?
    /// `description`, else `itunes:summary` (RSS); `subtitle` (Atom).
    public var description: String?
    /// `itunes:author`, else `managingEditor`/`dc:creator` (RSS); the feed's `author/name` (Atom).
    public var author: String?
    /// `itunes:image href`, else `image/url` (RSS); `logo`, else `icon` (Atom).
    public var imageURL: String?
    public var language: String?
    public var items: [FeedItem]

    public init(
        format: Format, title: String = "", link: String? = nil, description: String? = nil, author: String? = nil,
        imageURL: String? = nil, language: String? = nil, items: [FeedItem] = []
    ) {
        self.format = format
        self.title = title
        self.link = link
        self.description = description
        self.author = author
        self.imageURL = imageURL
        self.language = language
        self.items = items
    }
}

/// One item (RSS) or entry (Atom). Every item is kept, with or without an enclosure: an item whose
/// enclosure is missing or not audio (a blog post, a video episode) is listed but `isDownloadable` is false.
public struct FeedItem: Sendable, Hashable {
    /// A stable identity: `guid` (RSS) or `id` (Atom); else the enclosure's URL; else the link; else the title
    /// and the date as written. Never empty for an item with a title, link or enclosure.
    public var guid: String
    public var title: String
    /// `pubDate` (RFC 822 and its real-world variants; `dc:date` in RSS 1.0) or Atom's `published`, else
    /// `updated`. Nil when missing or unreadable (the raw text is in `dateText`).
    public var published: Date?
    /// The date as the feed wrote it (for a log line when it did not parse).
    public var dateText: String?
    public var enclosure: Enclosure?
    /// `itunes:duration` in seconds (written as seconds, MM:SS or HH:MM:SS).
    public var duration: Double?
    /// `itunes:episode`, `itunes:season`.
    public var episode: Int?
    public var season: Int?
    /// `content:encoded`, else `description`, else `itunes:summary` (RSS); `content`, else `summary` (Atom).
    /// As the feed wrote it (often HTML).
    public var summary: String?
    /// `itunes:image href` of the item.
    public var imageURL: String?
    public var link: String?

    /// True when the item has an enclosure that is audio: the only items an episode download takes.
    public var isDownloadable: Bool { enclosure?.isAudio ?? false }

    public init(
        guid: String = "", title: String = "", published: Date? = nil, dateText: String? = nil,
        enclosure: Enclosure? = nil, duration: Double? = nil, episode: Int? = nil, season: Int? = nil,
        summary: String? = nil, imageURL: String? = nil, link: String? = nil
    ) {
        self.guid = guid
        self.title = title
        self.published = published
        self.dateText = dateText
        self.enclosure = enclosure
        self.duration = duration
        self.episode = episode
        self.season = season
        self.summary = summary
        self.imageURL = imageURL
        self.link = link
    }
}

/// An item's media file: RSS `enclosure`, Atom `link rel="enclosure"` (or, for RSS without an enclosure,
/// Media RSS's `media:content`).
public struct Enclosure: Sendable, Hashable {
    public var url: String
    /// The length the feed claims, in bytes (often 0 or wrong: a hint, never a check).
    public var length: Int64?
    /// The MIME type the feed claims, lowercased, parameters dropped.
    public var type: String?

    public init(url: String, length: Int64? = nil, type: String? = nil) {
        self.url = url
        self.length = length
        self.type = type
    }

    /// Audio by its type (`audio/…`), or, when the type is missing or generic (`application/octet-stream`,
    /// `binary/octet-stream`), by the URL path's extension. Video is not audio: the player plays sound only.
    public var isAudio: Bool {
        if let type, type.hasPrefix("audio/") { return true }
        if let type, !type.isEmpty, !Self.genericTypes.contains(type) { return false }
        return EpisodeFileName.audioExtensions.contains(EpisodeFileName.pathExtension(ofURL: url))
    }

    static let genericTypes: Set<String> = ["application/octet-stream", "binary/octet-stream", "application/download"]
}

/// Why a document is not a feed. One line each (`description`).
public enum FeedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document is larger than the caller's cap.
    case tooLarge(size: Int, cap: Int)
    /// Not XML at all (an HTML error page, JSON, nothing).
    case notXML(reason: String)
    /// Well-formed XML, but its root is not `rss`, `RDF` or `feed`.
    case notAFeed(root: String)
    /// A feed document broken part way (the line the XML parser stopped at).
    case malformed(line: Int, reason: String)

    public var description: String {
        switch self {
        case .tooLarge(let size, let cap): "the feed is \(size) bytes, more than the limit of \(cap)"
        case .notXML(let reason): "not XML: \(reason)"
        case .notAFeed(let root): "XML but not a feed (its root element is <\(root)>)"
        case .malformed(let line, let reason): "a broken feed at line \(line): \(reason)"
        }
    }
}
