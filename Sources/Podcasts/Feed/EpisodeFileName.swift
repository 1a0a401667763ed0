// File and folder names for downloaded episodes: `Podcasts/<Show>/<date> <title> <id>.<ext>`.
import Foundation

public enum EpisodeFileName {
    /// The longest name made, in UTF-8 bytes: ext4 allows 255, and the download's temporary name
    /// (`.<name>.part`) adds 6.
    public static let maxBytes = 240

    /// Extensions taken from an enclosure URL's path as they are (lowercased).
    public static let audioExtensions: Set<String> = ["mp3", "m4a", "m4b", "aac", "ogg", "oga", "opus", "flac", "wav", "mp2"]

    /// Audio MIME types to an extension, for URLs whose path says nothing (`/download?id=3`).
    public static let mimeExtensions: [String: String] = [
        "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/x-mp3": "mp3", "audio/mpeg3": "mp3", "audio/x-mpeg": "mp3",
        "audio/mp4": "m4a", "audio/x-m4a": "m4a", "audio/m4a": "m4a", "audio/x-m4b": "m4b", "audio/aac": "aac",
        "audio/aacp": "aac", "audio/x-aac": "aac", "audio/ogg": "ogg", "audio/vorbis": "ogg", "audio/opus": "opus",
        "audio/flac": "flac", "audio/x-flac": "flac", "audio/wav": "wav", "audio/x-wav": "wav", "audio/wave": "wav",
    ]

    /// The file name of an episode inside its show's folder. Stable (the same item gives the same name on
    /// every run and every machine) and unique per guid: a short hash of the guid ends the name, so two
    /// episodes with one title on one day do not collide and a title edited in the feed is a new name only
    /// if the guid changed too. The date (UTC) comes first so a folder listing sorts by date.
    public static func make(for item: FeedItem) -> String {
        let date = item.published.map(datePrefix) ?? "undated"
        let ext = fileExtension(url: item.enclosure?.url ?? "", type: item.enclosure?.type)
        let tag = hashTag(item.guid.isEmpty ? (item.enclosure?.url ?? item.title) : item.guid)
        let fixed = date.utf8.count + 1 + 1 + tag.utf8.count + 1 + ext.utf8.count
        let title = clean(item.title.isEmpty ? "Episode" : item.title, maxBytes: maxBytes - fixed)
        return "\(date) \(title.isEmpty ? "Episode" : title) \(tag).\(ext)"
    }

    /// A show's folder name (under `Podcasts/`): the feed's title cleaned, or `fallback` (the feed's host,
    /// say) when the title cleans to nothing.
    public static func folder(forShow title: String, fallback: String = "Podcast") -> String {
        let name = clean(title, maxBytes: maxBytes)
        if !name.isEmpty { return name }
        let other = clean(fallback, maxBytes: maxBytes)
        return other.isEmpty ? "Podcast" : other
    }

    /// One path component from any text: NFC; no `/`, no NUL or other control character (C0, DEL, C1), no
    /// characters that FAT or SMB refuse (`\ : * ? " < > |`, the music folder may be shared), whitespace
    /// runs as one space, no leading dot or space, no trailing dot or space; at most `maxBytes` UTF-8 bytes,
    /// cut between characters.
    public static func clean(_ text: String, maxBytes: Int) -> String {
        var out = ""
        var pendingSpace = false
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            let v = scalar.value
            let replaced: Unicode.Scalar?
            switch v {
            case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029: replaced = " "
            case 0x2F, 0x5C, 0x3A, 0x2A, 0x3F, 0x22, 0x3C, 0x3E, 0x7C: replaced = v == 0x3A ? " " : "-"
            case 0xFEFF, 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069: replaced = nil  // invisible, bidi
            default: replaced = scalar
            }
            guard let s = replaced else { continue }
            if s.properties.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.unicodeScalars.append(" ")
                pendingSpace = false
            }
            out.unicodeScalars.append(s)
        }
        while out.first == "." || out.first == " " || out.first == "-" { out.removeFirst() }
        if out.utf8.count > maxBytes {
            var cut = ""
            for character in out {
                if cut.utf8.count + character.utf8.count > maxBytes { break }
                cut.append(character)
            }
            out = cut
        }
        while out.last == "." || out.last == " " { out.removeLast() }
        return out
    }

    /// The extension of a download: the URL path's, when it is a known audio one; else the MIME type's;
    /// else `mp3` (by far the most common podcast format; the library reads the file's content, not its name,
    /// to pick a decoder only after the name says audio).
    public static func fileExtension(url: String, type: String?) -> String {
        let fromPath = pathExtension(ofURL: url)
        if audioExtensions.contains(fromPath) { return fromPath }
        if let type, let ext = mimeExtensions[type] { return ext }
        return "mp3"
    }

    /// The lowercased extension of a URL's path (query and fragment ignored), or "".
    public static func pathExtension(ofURL url: String) -> String {
        var path = Substring(url)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        if let scheme = path.range(of: "://") {
            let rest = path[scheme.upperBound...]
            path = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
        }
        let last = path.split(separator: "/").last ?? ""
        guard let dot = last.lastIndex(of: ".") else { return "" }
        let ext = last[last.index(after: dot)...]
        guard ext.count <= 5, ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return "" }
        return ext.lowercased()
    }

    static func datePrefix(_ date: Date) -> String {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        // Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let y = String(max(0, min(9999, year)))
        return String(repeating: "0", count: 4 - y.count) + y + "-" + two(month) + "-" + two(day)
    }

    /// Eight hex digits of FNV-1a over the guid's UTF-8: stable across runs (Swift's Hasher is seeded per
    /// process).
    static func hashTag(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        let folded = UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
        let hex = String(folded, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
