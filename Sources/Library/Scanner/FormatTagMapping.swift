import AudioFormats
import ClickWheelCore
import Foundation

/// Maps what the project's own format readers found (`AudioFileInfo`: MP4 atoms, Vorbis comments, FLAC
/// blocks, RIFF INFO) onto `TrackMetadata`, with the same rules as ID3: multiple values kept, the
/// album artist and compilation flag, sort tags, ReplayGain, podcasts and audiobooks.
enum FormatTagMapping {
    /// The tag family a container's tags are, as `tag_format` stores it.
    static func tagFormat(_ info: AudioFileInfo) -> String {
        switch info.container {
        case .mp4: "mp4"
        case .flac, .ogg: "vorbis-comment"
        case .wav: "riff-info"
        case .aiff: "aiff"
        }
    }

    static func apply(_ info: AudioFileInfo, suffix: String, to m: inout TrackMetadata) {
        m.tagFormat = info.tags.isEmpty ? "none" : tagFormat(info)
        func texts(_ key: TagKey) -> [String] {
            var out: [String] = []
            for v in info.values(key) {
                let t = v.trimmingSpaces
                if !t.isEmpty, !out.contains(t) { out.append(t) }
            }
            return out
        }
        func text(_ key: TagKey) -> String? { texts(key).first }

        if let t = text(.title) { m.title = t }
        m.artists = texts(.artist)
        if let a = text(.album) { m.album = a }
        m.albumArtists = texts(.albumArtist)
        m.genres = texts(.genre).flatMap(ID3Genres.resolve)
        m.composers = texts(.composer)
        m.comment = text(.comment)
        if let d = text(.date) {
            m.date = d
            m.year = Int(d.prefix(4))
        }
        if let t = text(.trackNumber) { (m.trackNumber, m.trackTotal) = TagMapping.numberPair(t) }
        if m.trackTotal == nil, let t = text(.trackTotal) { m.trackTotal = TagMapping.numberPair(t).0 }
        if let d = text(.discNumber) { (m.discNumber, m.discTotal) = TagMapping.numberPair(d) }
        if m.discTotal == nil, let d = text(.discTotal) { m.discTotal = TagMapping.numberPair(d).0 }
        if let c = text(.compilation) { m.isCompilation = ["1", "true", "yes"].contains(c.lowercased()) }
        m.sortTitle = text(.sortTitle)
        m.sortArtist = text(.sortArtist)
        m.sortAlbum = text(.sortAlbum)
        m.sortAlbumArtist = text(.sortAlbumArtist)
        m.musicBrainzTrackID = text(.musicBrainzTrackID)
        loudness(info, text, &m)

        // Podcasts and audiobooks as iTunes marks them: `stik` 21 or `pcst`, `stik` 2 or an .m4b.
        let kind = text(.mediaKind).flatMap { Int($0) }
        if kind == 21 || text(.podcast) == "1" { m.isPodcast = true }
        if let url = text(.podcastURL) { m.feedURL = url }
        m.podcastDescription = text(.podcastDescription)
        m.releaseDate = text(.releaseDate)
        if !m.isPodcast, kind == 2 || suffix == "m4b" { m.isAudiobook = true }

        if let cover = info.pictures.first(where: { $0.type == 3 }) ?? info.pictures.first {
            m.hasArtwork = true
            m.artworkMIME = cover.mime.isEmpty ? nil : cover.mime
            if case .range(let r) = cover.location {
                m.artworkOffset = r.lowerBound
                m.artworkSize = r.count
            }
        }
        let invalid = info.problems.filter { $0.kind == "invalid-text" }
        if !invalid.isEmpty { m.problems.append(ScanProblem("invalid-text", invalid.map(\.reason).joined(separator: "; "))) }
    }

    /// Sound Check's values: ReplayGain as tagged, else Opus's R128 gains (relative to −23 LUFS, which
    /// ReplayGain's −18 LUFS reference puts 5 dB higher), else iTunes's `iTunNORM`.
    private static func loudness(_ info: AudioFileInfo, _ text: (TagKey) -> String?, _ m: inout TrackMetadata) {
        m.trackGain = text(.replayGainTrackGain).flatMap(TagMapping.decibels)
        m.trackPeak = text(.replayGainTrackPeak).flatMap { Double($0.trimmingSpaces) }
        m.albumGain = text(.replayGainAlbumGain).flatMap(TagMapping.decibels)
        m.albumPeak = text(.replayGainAlbumPeak).flatMap { Double($0.trimmingSpaces) }
        if m.trackGain == nil, let q = text(.r128TrackGain).flatMap({ Int($0.trimmingSpaces) }) {
            m.trackGain = Double(q) / 256 + 5
        }
        if m.albumGain == nil, let q = text(.r128AlbumGain).flatMap({ Int($0.trimmingSpaces) }) {
            m.albumGain = Double(q) / 256 + 5
        }
        if m.trackGain == nil, let norm = text(.iTunesNormalization) { m.trackGain = soundCheckGain(norm) }
    }

    /// The gain iTunes's Sound Check applies, from `iTunNORM`: ten hex words whose first two are the
    /// left and right channels' loudness as 1/1000 of a reference; the louder one decides:
    /// gain = −10·log10(value / 1000) dB. Nil when the value is not of that shape.
    static func soundCheckGain(_ norm: String) -> Double? {
        let words = norm.split(separator: " ").compactMap { UInt32($0, radix: 16) }
        guard words.count >= 2 else { return nil }
        let loudest = max(words[0], words[1])
        guard loudest > 0 else { return nil }
        return -10 * log10(Double(loudest) / 1000)
    }

    /// The file's chapters with their ends (the next start, the last one the track's end).
    static func chapters(_ info: AudioFileInfo, durationMS: Int) -> [Chapter] {
        let sorted = info.chapters.filter { $0.startMS >= 0 && $0.startMS < max(1, durationMS) }
            .sorted { $0.startMS < $1.startMS }
        var out: [Chapter] = []
        for (i, c) in sorted.enumerated() {
            let end = i + 1 < sorted.count ? sorted[i + 1].startMS : durationMS
            guard end > c.startMS else { continue }
            out.append(Chapter(startMS: c.startMS, endMS: end, title: c.title.isEmpty ? "Chapter \(out.count + 1)" : c.title))
        }
        return out
    }
}
