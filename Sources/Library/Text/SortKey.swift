import Foundation

/// Sort keys for menu order: what "Artists", "Albums" and "Songs" sort by, compared as plain bytes.
///
/// A key is case-, width- and diacritic-insensitive ("Ärzte" files with "arzte"), ignores a leading
/// "The ", "A " or "An " (unless a sort tag was given: callers pass `dropArticle: false`) and leading
/// punctuation, and compares runs of digits as numbers ("2 Unlimited" before "10cc"). As on an iPod,
/// names starting with a Latin letter come first, then other scripts, then digits and symbols ("#").
public enum SortKey {
    /// Class prefixes: Latin letters, other letters, digits and symbols.
    static let latin: Character = "0", otherScript: Character = "1", symbol: Character = "2"

    /// The sort key of `text`.
    public static func make(_ text: String, dropArticle: Bool = true) -> String {
        var folded = fold(text)
        folded = String(folded.drop { !($0.isLetter || $0.isNumber) })
        if folded.isEmpty { return String(symbol) }
        if dropArticle { folded = withoutArticle(folded) }
        var key = ""
        key.reserveCapacity(folded.utf8.count + 8)
        let first = folded.first!
        key.append(first.isASCII && first.isLetter ? latin : first.isLetter ? otherScript : symbol)
        var digits = Substring()
        var index = folded.startIndex
        while index < folded.endIndex {
            let c = folded[index]
            if c.isASCII, c.isNumber {
                let end = folded[index...].firstIndex { !($0.isASCII && $0.isNumber) } ?? folded.endIndex
                digits = folded[index..<end].drop { $0 == "0" }
                // Width-prefixed numbers compare by value: "2" → "01:2", "10" → "02:10".
                let width = String(digits.count)
                key += String(repeating: "0", count: max(0, 2 - width.count)) + width + ":" + digits
                index = end
            } else {
                key.append(c)
                index = folded.index(after: index)
            }
        }
        return key
    }

    /// The letter-jump heading of a key: "A"…"Z", the first character of another script, or "#".
    public static func initial(ofKey key: String) -> Character {
        guard let cls = key.first, let c = key.dropFirst().first else { return "#" }
        switch cls {
        case latin: return Character(c.uppercased())
        case otherScript: return c
        default: return "#"
        }
    }

    static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    static func withoutArticle(_ s: String) -> String {
        for article in ["the ", "a ", "an "] where s.hasPrefix(article) {
            let rest = s.dropFirst(article.count).drop { $0 == " " }
            if !rest.isEmpty { return String(rest) }
        }
        return s
    }
}
