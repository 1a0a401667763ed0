import AudioFormats

/// ID3v1 genre numbers and how ID3v2 TCON values refer to them.
enum ID3Genres {
    /// The ID3v1 genre list with Winamp's extensions, index = genre number (`ID3GenreNames`).
    static var names: [String] { ID3GenreNames.all }

    /// Resolves a TCON value: "(17)" → ["Rock"], "17" → ["Rock"], "(17)Rock & Roll" → ["Rock & Roll"]
    /// (the refinement wins), "(17)(18)" → ["Rock", "Techno"], "(RX)" → ["Remix"], "(CR)" → ["Cover"],
    /// "((text)" → ["(text)"]; anything else is a genre name as it stands.
    static func resolve(_ value: String) -> [String] {
        let v = value.trimmingSpaces
        if v.isEmpty { return [] }
        if let n = Int(v) { return [name(n) ?? v] }
        var rest = Substring(v)
        var refs: [String] = []
        while rest.hasPrefix("("), !rest.hasPrefix("(("), let close = rest.firstIndex(of: ")") {
            let code = rest[rest.index(after: rest.startIndex)..<close]
            if let n = Int(code), let g = name(n) {
                refs.append(g)
            } else if code == "RX" {
                refs.append("Remix")
            } else if code == "CR" {
                refs.append("Cover")
            } else {
                break
            }
            rest = rest[rest.index(after: close)...]
        }
        if rest.hasPrefix("((") { rest = rest.dropFirst() }
        let refinement = String(rest).trimmingSpaces
        if !refinement.isEmpty { return [refinement] }
        return refs.isEmpty ? [v] : refs
    }

    static func name(_ n: Int) -> String? { n >= 0 && n < names.count ? names[n] : nil }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
