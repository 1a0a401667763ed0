/// iPod-style sort keys: case- and accent-insensitive, leading articles ignored.
///
/// The library sorts its lists by these; the letter-jump shows `initial`. Shared so that the SQLite
/// store and the in-memory twin sort alike.
public enum SortKey {
    /// The key of `text`: lower-cased, spelled in ASCII where it can be, without a leading
    /// "The ", "A " or "An ".
    public static func make(_ text: String) -> String {
        var key = fold(text)
        for article in ["the ", "a ", "an "] where key.hasPrefix(article) && key.count > article.count {
            key.removeFirst(article.count)
            break
        }
        return key
    }

    /// `text` lower-cased and spelled in ASCII where it can be (what search compares).
    public static func fold(_ text: String) -> String {
        var key = ""
        for c in text {
            key += Transliteration.ascii(c) ?? String(c)
        }
        return key.lowercased()
    }

    /// The letter-jump key of `text`: the first letter of its sort key upper-cased, "#" for digits and symbols.
    public static func initial(of text: String) -> Character {
        guard let first = make(text).first, first.isLetter, first.isASCII else { return "#" }
        return Character(first.uppercased())
    }
}
