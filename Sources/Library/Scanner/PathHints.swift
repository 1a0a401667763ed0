import Foundation

/// What a file's path says when its tags are silent: `Artist/Album/NN Title.mp3` and friends.
enum PathHints {
    /// Fills empty title, artist, album, track and disc from `relativePath` (components split on "/").
    static func apply(relativePath: String, to m: inout TrackMetadata) {
        var components = relativePath.split(separator: "/").map(String.init)
        guard let file = components.popLast() else { return }
        var name = file
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        // Folders: drop "Disc 1"/"CD 2" levels, take the album and the artist above them.
        var disc: Int?
        if let last = components.last, let d = discNumber(inFolder: last) {
            disc = d
            components.removeLast()
        }
        var album = components.last
        if let a = album, let paren = a.range(of: " (Disc ", options: .caseInsensitive) {
            disc = Int(a[paren.upperBound...].prefix { $0.isNumber })
            album = String(a[..<paren.lowerBound])
        }
        if let a = album, a.hasSuffix(")"), let open = a.lastIndex(of: "("),
            a[a.index(after: open)..<a.index(before: a.endIndex)].allSatisfy(\.isNumber)
        {
            album = String(a[..<open]).trimmingSpaces  // "Album (1999)"
        }
        let artistFolder = components.count >= 2 ? components[components.count - 2] : nil

        var title = name
        var track: Int?
        var artistFromName: String?
        let words = name.split(separator: " - ", maxSplits: 2, omittingEmptySubsequences: false)
        if words.count == 3, let n = Int(words[1]) {  // "Artist - NN - Title"
            artistFromName = String(words[0])
            track = n
            title = String(words[2])
        } else {
            let lead = name.prefix { $0.isNumber || $0 == "-" }
            if let dash = lead.firstIndex(of: "-"), let d = Int(lead[..<dash]), let t = Int(lead[lead.index(after: dash)...]) {
                disc = disc ?? d  // "1-01 Title"
                track = t
                title = String(name.dropFirst(lead.count))
            } else if let n = Int(lead), !lead.isEmpty {
                track = n
                title = String(name.dropFirst(lead.count))
            }
            title = String(title.drop { $0 == " " || $0 == "." || $0 == "-" || $0 == "_" })
            if track != nil, let sep = title.range(of: " - ") {  // "NN Artist - Title"
                artistFromName = String(title[..<sep.lowerBound])
                title = String(title[sep.upperBound...])
            }
        }
        if m.title.isEmpty { m.title = title.trimmingSpaces.isEmpty ? name : title.trimmingSpaces }
        if m.artists.isEmpty {
            if let a = artistFromName ?? artistFolder { m.artists = [a] }
        }
        if m.album.isEmpty, let a = album, components.count >= 1 { m.album = a }
        if m.trackNumber == nil { m.trackNumber = track }
        if m.discNumber == nil { m.discNumber = disc }
    }

    /// "Disc 1", "CD 2", "disc2" → the number.
    static func discNumber(inFolder name: String) -> Int? {
        let lower = name.lowercased()
        for prefix in ["disc", "disk", "cd"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count).drop { $0 == " " || $0 == "_" || $0 == "-" }
            if let n = Int(rest) { return n }
        }
        return nil
    }
}
