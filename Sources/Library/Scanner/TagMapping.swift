import Mpg123

/// Maps the frames libmpg123 returns (and the few this project reads itself) onto `TrackMetadata`.
enum TagMapping {
    /// Applies an ID3v2 tag. ID3v2.4 values are NUL-separated lists; v2.2 ids arrive promoted.
    static func apply(_ tag: ID3v2Tag, layout: ID3v2Layout?, to m: inout TrackMetadata) {
        m.tagFormat = "id3v2.\(tag.version)"
        var invalid: Set<String> = []
        func values(_ f: ID3Frame) -> [String] {
            let parts = f.text.split(separator: 0, omittingEmptySubsequences: false)
            var out: [String] = []
            for part in parts {
                let (text, valid) = TextDecoding.utf8(part)
                if !valid { invalid.insert(f.id) }
                var t = text.trimmingSpaces
                if t.hasPrefix("\u{FEFF}") { t = String(t.dropFirst()).trimmingSpaces }  // BOM of a later UTF-16 value
                if !t.isEmpty { out.append(t) }
            }
            return out
        }
        for f in tag.texts {
            let v = values(f)
            guard let first = v.first else { continue }
            switch f.id {
            case "TIT2": m.title = first
            case "TPE1": m.artists = v
            case "TALB": m.album = first
            case "TPE2": m.albumArtists = v
            case "TCON": m.genres = v.flatMap(ID3Genres.resolve)
            case "TCOM": m.composers = v
            case "TYER", "TDRC":
                m.date = first
                m.year = Int(first.prefix(4))
            case "TRCK": (m.trackNumber, m.trackTotal) = numberPair(first)
            case "TPOS": (m.discNumber, m.discTotal) = numberPair(first)
            case "TCMP": m.isCompilation = first == "1"
            case "TSOT": m.sortTitle = first
            case "TSOP": m.sortArtist = first
            case "TSOA": m.sortAlbum = first
            case "TSO2": m.sortAlbumArtist = first
            case "TDRL": m.releaseDate = first
            case "TDES": m.podcastDescription = first
            default: break
            }
        }
        for f in tag.extras {
            let key = TextDecoding.utf8(f.description).text.uppercased()
            guard let value = values(f).first else { continue }
            switch key {
            case "REPLAYGAIN_TRACK_GAIN": m.trackGain = decibels(value)
            case "REPLAYGAIN_TRACK_PEAK": m.trackPeak = Double(value)
            case "REPLAYGAIN_ALBUM_GAIN": m.albumGain = decibels(value)
            case "REPLAYGAIN_ALBUM_PEAK": m.albumPeak = Double(value)
            case "MUSICBRAINZ TRACK ID", "MUSICBRAINZ_TRACKID": m.musicBrainzTrackID = value
            default: break
            }
        }
        // The last COMM with an empty description is the comment (as libmpg123's own pointer does).
        for f in tag.comments where f.description.isEmpty {
            if let v = values(f).first { m.comment = v }
        }
        if let layout {
            if let c = layout.compilation { m.isCompilation = c.trimmingSpaces == "1" }
            if m.trackGain == nil, let g = layout.rva2["track"] {
                m.trackGain = g
                m.trackPeak = m.trackPeak ?? layout.rva2Peak["track"]
            }
            if m.albumGain == nil, let g = layout.rva2["album"] {
                m.albumGain = g
                m.albumPeak = m.albumPeak ?? layout.rva2Peak["album"]
            }
            if layout.hasPodcastFrame { m.isPodcast = true }
            m.sortTitle = m.sortTitle ?? layout.sortFrames["TSOT"]
            m.sortArtist = m.sortArtist ?? layout.sortFrames["TSOP"]
            m.sortAlbum = m.sortAlbum ?? layout.sortFrames["TSOA"]
            m.sortAlbumArtist = m.sortAlbumArtist ?? layout.sortFrames["TSO2"]
            if let url = layout.feedURL, !url.isEmpty { m.feedURL = url }
            if !layout.pictures.isEmpty {
                m.hasArtwork = true
                let pic = layout.pictures.first { $0.type == 3 } ?? layout.pictures[0]
                m.artworkMIME = pic.mime.isEmpty ? nil : pic.mime
                m.artworkOffset = pic.offset
                m.artworkSize = pic.size
            }
        }
        if !invalid.isEmpty {
            m.problems.append(
                ScanProblem("invalid-text", "tag frames not valid text: \(invalid.sorted().joined(separator: ", "))"))
        }
    }

    /// Applies an ID3v1/v1.1 tag (fields only fill what ID3v2 left empty).
    static func apply(_ v1: ID3v1Tag, to m: inout TrackMetadata) {
        if m.tagFormat == "none" { m.tagFormat = v1.track != nil ? "id3v1.1" : "id3v1" }
        let title = TextDecoding.id3v1(v1.title), artist = TextDecoding.id3v1(v1.artist)
        let album = TextDecoding.id3v1(v1.album), year = TextDecoding.id3v1(v1.year)
        if m.title.isEmpty, !title.isEmpty { m.title = title }
        if m.artists.isEmpty, !artist.isEmpty { m.artists = [artist] }
        if m.album.isEmpty, !album.isEmpty { m.album = album }
        if m.year == nil, let y = Int(year) {
            m.year = y
            m.date = year
        }
        if m.trackNumber == nil, let t = v1.track { m.trackNumber = t }
        if m.genres.isEmpty, let g = ID3Genres.name(Int(v1.genre)) { m.genres = [g] }
        if m.comment == nil {
            let c = TextDecoding.id3v1(v1.track != nil ? v1.comment.prefix(28) : v1.comment)
            if !c.isEmpty { m.comment = c }
        }
    }

    /// "3/12" → (3, 12), "03" → (3, nil).
    static func numberPair(_ s: String) -> (Int?, Int?) {
        let parts = s.split(separator: "/", maxSplits: 1).map { String($0).trimmingSpaces }
        let n = parts.first.flatMap { Int($0) }
        let total = parts.count > 1 ? Int(parts[1]) : nil
        return (n.flatMap { $0 > 0 ? $0 : nil }, total.flatMap { $0 > 0 ? $0 : nil })
    }

    /// "-6.50 dB" → -6.5.
    static func decibels(_ s: String) -> Double? {
        var t = s.trimmingSpaces
        if t.lowercased().hasSuffix("db") { t = String(t.dropLast(2)).trimmingSpaces }
        return Double(t)
    }
}
