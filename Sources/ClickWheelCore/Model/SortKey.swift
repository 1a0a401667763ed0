/// iPod-style sort keys: what every list is ordered by, compared as plain bytes (SQLite's BINARY).
///
/// A key is case- and accent-insensitive ("Ärzte" files with "arzte"; letters are spelled in ASCII
/// where `Transliteration` knows how), ignores a leading "The ", "A " or "An " (unless the text comes
/// from a sort tag: `dropArticle: false`) and leading punctuation, and compares runs of digits as
/// numbers ("2 Unlimited" before "10cc"). As on an iPod, names that start with a Latin letter come
/// first, then other scripts, then digits and symbols (the "#" group).
///
/// Shared by the SQLite store and the in-memory twin, so both sort alike.
public enum SortKey {
    /// Class prefixes: Latin letters, other letters, digits and symbols.
    static let latin: Character = "0", otherScript: Character = "1", symbol: Character = "2"

    /// The sort key of `text`.
    public static func make(_ text: String, dropArticle: Bool = true) -> String {
        var folded = Substring(fold(text)).drop { !($0.isLetter || $0.isNumber) }
        if folded.isEmpty { return String(symbol) }
        if dropArticle {
            for article in ["the ", "a ", "an "] where folded.hasPrefix(article) {
                let rest = folded.dropFirst(article.count).drop { $0 == " " }
                if !rest.isEmpty { folded = rest }
                break
            }
        }
        let first = folded.first!
        var key = String(first.isASCII && first.isLetter ? latin : first.isLetter ? otherScript : symbol)
        key.reserveCapacity(folded.utf8.count + 8)
        var index = folded.startIndex
        while index < folded.endIndex {
            let c = folded[index]
            guard c.isASCII, c.isNumber else {
                key.append(c)
                index = folded.index(after: index)
                continue
            }
            // Width-prefixed numbers compare by value: "2" → "01:2", "10" → "02:10".
            let end = folded[index...].firstIndex { !($0.isASCII && $0.isNumber) } ?? folded.endIndex
            let digits = folded[index..<end].drop { $0 == "0" }
            let width = String(digits.count)
            key += String(repeating: "0", count: max(0, 2 - width.count)) + width + ":" + digits
            index = end
        }
        return key
    }

    /// `text` lower-cased and spelled in ASCII where it can be (what search compares).
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text { out += Transliteration.ascii(c) ?? String(c) }
        return out.lowercased()
    }

    /// The letter-jump heading of a key: "A"…"Z", the first character of another script, or "#".
    public static func initial(ofKey key: String) -> Character {
        guard let cls = key.first, let c = key.dropFirst().first else { return "#" }
        switch cls {
        case latin: return Character(c.uppercased())
        // The first scalar, not the Character: a letter with a combining mark after it (as a name in NFD
        // has) is one Character, and would head a group of its own inside its letter's.
        case otherScript: return Character(c.unicodeScalars.first!)
        default: return "#"
        }
    }

    /// The letter-jump heading of `text`.
    public static func initial(of text: String) -> Character { initial(ofKey: make(text)) }
}
