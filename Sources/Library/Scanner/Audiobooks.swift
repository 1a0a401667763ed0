/// Decides whether a track is part of an audiobook, and of which book.
enum Audiobooks {
    /// Genres that mark a book, lower-cased (String equality is canonical: a decomposed ö matches);
    /// ID3 genre 183 reads as "Audiobook".
    static let genres: Set<String> = ["audiobook", "audiobooks", "audio book", "hörbuch", "hörbücher"]

    /// A part has one of `genres` or lives under a top `Audiobooks/` folder (a podcast stays a podcast).
    /// Its book is its album; without one, the folder it sits in, else the file itself (its title, or
    /// its name): one long file is a book of one part. Runs for every file a scan reads, so the common
    /// answer (not a book) costs a byte compare and a set lookup, no path split.
    static func classify(relativePath: String, _ m: inout TrackMetadata) {
        guard !m.isPodcast else { return }
        let underTop = isUnderTopFolder(relativePath)
        guard underTop || m.genres.contains(where: { genres.contains($0.lowercased()) }) else { return }
        m.isAudiobook = true
        guard m.album.isEmpty else { return }
        var parts = relativePath.split(separator: "/")
        let file = parts.popLast().map(String.init) ?? relativePath
        if parts.count >= 2 || (!underTop && !parts.isEmpty), let folder = parts.last {
            m.album = String(folder)
        } else if !m.title.isEmpty {
            m.album = m.title
        } else {
            let dot = file.lastIndex(of: ".").flatMap { $0 == file.startIndex ? nil : $0 }
            m.album = String(file[..<(dot ?? file.endIndex)])
        }
    }

    /// True when the path's first folder is `Audiobooks` (ASCII letters in any case).
    static func isUnderTopFolder(_ path: String) -> Bool {
        var bytes = path.utf8.makeIterator()
        for expected in "audiobooks/".utf8 {
            guard let b = bytes.next() else { return false }
            let lowered = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
            if lowered != expected { return false }
        }
        return true
    }
}
