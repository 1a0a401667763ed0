/// ID3v1 genre numbers and how ID3v2 TCON values refer to them.
enum ID3Genres {
    /// The ID3v1 genre list with Winamp's extensions (192 names), index = genre number.
    static let names: [String] = [
        "Blues", "Classic Rock", "Country", "Dance", "Disco", "Funk", "Grunge", "Hip-Hop", "Jazz", "Metal",
        "New Age", "Oldies", "Other", "Pop", "R&B", "Rap", "Reggae", "Rock", "Techno", "Industrial", "Alternative",
        "Ska", "Death Metal", "Pranks", "Soundtrack", "Euro-Techno", "Ambient", "Trip-Hop", "Vocal", "Jazz+Funk",
        "Fusion", "Trance", "Classical", "Instrumental", "Acid", "House", "Game", "Sound Clip", "Gospel", "Noise",
        "Alt. Rock", "Bass", "Soul", "Punk", "Space", "Meditative", "Instrumental Pop", "Instrumental Rock",
        "Ethnic", "Gothic", "Darkwave", "Techno-Industrial", "Electronic", "Pop-Folk", "Eurodance", "Dream",
        "Southern Rock", "Comedy", "Cult", "Gangsta Rap", "Top 40", "Christian Rap", "Pop/Funk", "Jungle",
        "Native American", "Cabaret", "New Wave", "Psychedelic", "Rave", "Showtunes", "Trailer", "Lo-Fi", "Tribal",
        "Acid Punk", "Acid Jazz", "Polka", "Retro", "Musical", "Rock & Roll", "Hard Rock", "Folk", "Folk-Rock",
        "National Folk", "Swing", "Fast-Fusion", "Bebop", "Latin", "Revival", "Celtic", "Bluegrass", "Avantgarde",
        "Gothic Rock", "Progressive Rock", "Psychedelic Rock", "Symphonic Rock", "Slow Rock", "Big Band", "Chorus",
        "Easy Listening", "Acoustic", "Humour", "Speech", "Chanson", "Opera", "Chamber Music", "Sonata", "Symphony",
        "Booty Bass", "Primus", "Porn Groove", "Satire", "Slow Jam", "Club", "Tango", "Samba", "Folklore", "Ballad",
        "Power Ballad", "Rhythmic Soul", "Freestyle", "Duet", "Punk Rock", "Drum Solo", "A Cappella", "Euro-House",
        "Dance Hall", "Goa", "Drum & Bass", "Club-House", "Hardcore", "Terror", "Indie", "BritPop", "Afro-Punk",
        "Polsk Punk", "Beat", "Christian Gangsta Rap", "Heavy Metal", "Black Metal", "Crossover",
        "Contemporary Christian", "Christian Rock", "Merengue", "Salsa", "Thrash Metal", "Anime", "JPop", "Synthpop",
        "Abstract", "Art Rock", "Baroque", "Bhangra", "Big Beat", "Breakbeat", "Chillout", "Downtempo", "Dub", "EBM",
        "Eclectic", "Electro", "Electroclash", "Emo", "Experimental", "Garage", "Global", "IDM", "Illbient",
        "Industro-Goth", "Jam Band", "Krautrock", "Leftfield", "Lounge", "Math Rock", "New Romantic", "Nu-Breakz",
        "Post-Punk", "Post-Rock", "Psytrance", "Shoegaze", "Space Rock", "Trop Rock", "World Music", "Neoclassical",
        "Audiobook", "Audio Theatre", "Neue Deutsche Welle", "Podcast", "Indie Rock", "G-Funk", "Dubstep",
        "Garage Rock", "Psybient",
    ]

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
