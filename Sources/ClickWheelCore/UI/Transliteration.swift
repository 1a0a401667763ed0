/// Plain-ASCII spellings of the characters music tags commonly hold (é→e, ß→ss, “→").
///
/// A table rather than Unicode decomposition: the standard library has no NFD, and a table also
/// covers letters that do not decompose (ø, ł, æ) and punctuation.
enum Transliteration {
    /// The ASCII spelling of `c`, or nil when there is none.
    static func ascii(_ c: Character) -> String? {
        if c.isASCII { return String(c) }
        if let s = table[c] { return s }
        return nil
    }

    private static let table: [Character: String] = {
        var t: [Character: String] = [:]
        let groups: [(String, String)] = [
            ("ÀÁÂÃÄÅĀĂĄ", "A"), ("àáâãäåāăą", "a"), ("ÇĆĈĊČ", "C"), ("çćĉċč", "c"), ("ĎĐÐ", "D"), ("ďđð", "d"),
            ("ÈÉÊËĒĔĖĘĚ", "E"), ("èéêëēĕėęě", "e"), ("ĜĞĠĢ", "G"), ("ĝğġģ", "g"), ("ĤĦ", "H"), ("ĥħ", "h"),
            ("ÌÍÎÏĨĪĬĮİ", "I"), ("ìíîïĩīĭįı", "i"), ("Ĵ", "J"), ("ĵ", "j"), ("Ķ", "K"), ("ķ", "k"),
            ("ĹĻĽĿŁ", "L"), ("ĺļľŀł", "l"), ("ÑŃŅŇ", "N"), ("ñńņň", "n"), ("ÒÓÔÕÖØŌŎŐ", "O"),
            ("òóôõöøōŏő", "o"), ("ŔŖŘ", "R"), ("ŕŗř", "r"), ("ŚŜŞŠȘ", "S"), ("śŝşšș", "s"), ("ŢŤŦȚ", "T"),
            ("ţťŧț", "t"), ("ÙÚÛÜŨŪŬŮŰŲ", "U"), ("ùúûüũūŭůűų", "u"), ("Ŵ", "W"), ("ŵ", "w"), ("ÝŶŸ", "Y"),
            ("ýÿŷ", "y"), ("ŹŻŽ", "Z"), ("źżž", "z"), ("‘’‚′`´", "'"), ("“”„″«»", "\""), ("‐‑‒–—―−", "-"),
            ("•·", "."), ("×", "x"), ("÷", "/"), ("¡", "!"), ("¿", "?"), ("\u{A0}", " "),
        ]
        for (from, to) in groups {
            for c in from { t[c] = to }
        }
        let multi: [Character: String] = [
            "ß": "ss", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Þ": "Th", "þ": "th", "…": "...",
            "©": "(c)", "®": "(R)", "™": "TM", "€": "EUR", "£": "GBP", "¥": "JPY", "½": "1/2", "¼": "1/4",
            "¾": "3/4", "°": "o", "µ": "u", "›": ">", "‹": "<", "→": "->", "←": "<-", "♪": "*",
        ]
        t.merge(multi) { a, _ in a }
        return t
    }()
}
