/// One file of the demo library: where it goes, its tags, and the tune it plays.
struct DemoTrack {
    var path: String
    var title: String
    var artist: String
    var album: String
    var albumArtist: String?
    var year: Int
    var number: Int
    var total: Int
    var genre: String
    var composer: String?
    var compilation = false
    /// Podcast episodes: the release date (TDRL) and a description (TDES).
    var released: String?
    var summary: String?
    var voice: DemoSynth.Voice
    var notes: [DemoSynth.Note]

    /// lame's ID3 options for these tags (lame writes the ID3v2.3 tag itself).
    var lameTags: [String] {
        var args = [
            "--tt", title, "--ta", artist, "--tl", album, "--ty", "\(year)", "--tn", "\(number)/\(total)",
            "--tg", genre,
        ]
        if let albumArtist { args += ["--tv", "TPE2=\(albumArtist)"] }
        if let composer { args += ["--tv", "TCOM=\(composer)"] }
        if compilation { args += ["--tv", "TCMP=1"] }
        if let released { args += ["--tv", "TDRL=\(released)"] }
        if let summary { args += ["--tv", "TDES=\(summary)"] }
        return args
    }
}

extension DemoLibrary {
    /// An album: its folder, tags shared by its tracks, and (title, tune, extra) per track.
    private static func album(
        _ folder: String, artist: String, title: String, year: Int, genre: String, voice: DemoSynth.Voice, bpm: Double,
        albumArtist: String? = nil, compilation: Bool = false,
        _ songs: [(title: String, tune: String, artist: String?, composer: String?)]
    ) -> [DemoTrack] {
        songs.enumerated().map { i, song in
            let n = i + 1
            let name = (n < 10 ? "0\(n)" : "\(n)") + " " + song.title.filter { !"/?:".contains($0) }
            return DemoTrack(
                path: "\(folder)/\(name).mp3", title: song.title, artist: song.artist ?? artist, album: title,
                albumArtist: albumArtist, year: year, number: n, total: songs.count, genre: genre,
                composer: song.composer, compilation: compilation, voice: voice,
                notes: DemoSynth.notes(song.tune, bpm: bpm))
        }
    }

    /// Every track: five albums by four artists, one compilation, and a podcast show with three episodes.
    static let tracks: [DemoTrack] =
        album(
            "Aurora Tones/Sine Waves", artist: "Aurora Tones", title: "Sine Waves", year: 2019, genre: "Electronic",
            voice: .sine, bpm: 120,
            [
                ("Morning Sine", "C4 D4 E4 F4 G4 A4 B4 C5:2 B4 A4 G4 F4 E4 D4 C4:2", nil, nil),
                ("Four Forty", "A4:2 A5:2 A4:2 E5:2 A4:2 C#5:2 A4:4", nil, nil),
                ("Arpeggiator", arpeggios(["C4 E4 G4 C5", "A3 C4 E4 A4", "F3 A3 C4 F4", "G3 B3 D4 G4"]), nil, nil),
                ("Slow Glide", "E4:4 D4:4 C4:8", nil, nil),
            ])
        + album(
            "Aurora Tones/Daybreak", artist: "Aurora Tones", title: "Daybreak", year: 2022, genre: "Electronic",
            voice: .bell, bpm: 96,
            [
                ("First Light", "G4:0.5 B4:0.5 D5 G5:2 R:0.5 F#5:0.5 E5 D5:2 B4 G4:3", nil, nil),
                ("Blue Hour", "E5 D5 B4 A4 G4:2 E4:2 D4 E4 G4 A4 B4:4", nil, nil),
            ])
        + album(
            "The Square Waves/Eight-Bit Summer", artist: "The Square Waves", title: "Eight-Bit Summer", year: 2021,
            genre: "Rock", voice: .square, bpm: 140,
            [
                (
                    "Power Up", "C5:0.5 E5:0.5 G5:0.5 C6:1.5 R:0.5 G5:0.5 C6:2 R C5:0.5 E5:0.5 G5:0.5 B5:0.5 C6:3", nil,
                    nil
                ),
                ("Level Two", "E4:0.5 G4:0.5 B4 A4:0.5 G4:0.5 E4 D4:0.5 E4:0.5 G4:2 R E4:0.5 G4:0.5 B4 D5:3", nil, nil),
                (
                    "Boss Fight",
                    String(repeating: "A3:0.5 A3:0.5 C4:0.5 A3:0.5 D4:0.5 A3:0.5 E4:0.5 D4:0.5 ", count: 3) + "A4:3",
                    nil, nil
                ),
            ])
        + album(
            "Mira Velasquez/Etudes for Sine", artist: "Mira Velásquez", title: "Études for Sine", year: 2015,
            genre: "Classical", voice: .triangle, bpm: 110,
            [
                ("Twinkle Variations", "C4 C4 G4 G4 A4 A4 G4:2 F4 F4 E4 E4 D4 D4 C4:2", nil, "Wolfgang Amadeus Mozart"),
                ("Ode to Joy", "E4 E4 F4 G4 G4 F4 E4 D4 C4 C4 D4 E4 E4:1.5 D4:0.5 D4:2", nil, "Ludwig van Beethoven"),
                (
                    "Minuet in G",
                    "D5 G4:0.5 A4:0.5 B4:0.5 C5:0.5 D5 G4 G4 E5 C5:0.5 D5:0.5 E5:0.5 F#5:0.5 G5 G4 G4 "
                        + "C5 D5:0.5 C5:0.5 B4:0.5 A4:0.5 B4 C5:0.5 B4:0.5 A4:0.5 G4:0.5 F#4 G4:0.5 A4:0.5 B4:0.5 G4:0.5 A4:3",
                    nil, "Christian Petzold"
                ),
            ])
        + album(
            "Low Pass Filter/Night Drive", artist: "Low Pass Filter", title: "Night Drive", year: 2023,
            genre: "Ambient",
            voice: .pad, bpm: 50,
            [
                ("Streetlights", "A3:4 F3:4 C4:4 G3:4", nil, nil),
                ("Tunnel", "D3:6 A3:6", nil, nil),
                ("Home", "E3:4 B3:4 E4:7", nil, nil),
            ])
        + album(
            "Compilations/Demo Hits, Vol. 1", artist: "Various Artists", title: "Demo Hits, Vol. 1", year: 2020,
            genre: "Pop", voice: .organ, bpm: 120, albumArtist: "Various Artists", compilation: true,
            [
                (
                    "Lemonade", "E5:0.5 G5:0.5 A5 G5:0.5 E5:0.5 D5 C5:0.5 D5:0.5 E5:2 R G5:0.5 A5:0.5 C6 A5 G5:2",
                    "Kiko & the Beeps", "Kiko Tanaka"
                ),
                ("Frère Jacques", "C4 D4 E4 C4 C4 D4 E4 C4 E4 F4 G4:2 E4 F4 G4:2", "Pulse Width", nil),
                ("Sunny Side", "G4 C5 E5 G5:2 E5 C5 D5:2 B4:2 C5:4", "The Square Waves", nil),
                ("Drift", "F4:2 A4:2 C5:2 E5:2 D5:4 C5:4", "Aurora Tones", nil),
            ])
        + episodes

    /// "The Tone Hour": a jingle, then a voice-like babble, in `Podcasts/The Tone Hour/` with genre Podcast.
    private static let episodes: [DemoTrack] = [
        ("What Is a Sine Wave?", "2024-01-05", "Pure tones, and why they sound like a tuning fork.", 12.0),
        ("Square Deal", "2024-02-02", "Odd harmonics and the sound of old game consoles.", 15.0),
        ("Octaves and You", "2024-03-01", "Why doubling a frequency sounds like the same note.", 18.0),
    ].enumerated().map { i, episode in
        DemoTrack(
            path: "Podcasts/The Tone Hour/0\(i + 1) \(episode.0.filter { $0 != "?" }).mp3",
            title: "Ep. \(i + 1): \(episode.0)", artist: "Dr. Hertz", album: "The Tone Hour", year: 2024, number: i + 1,
            total: 3, genre: "Podcast", released: episode.1, summary: episode.2, voice: .speech,
            notes: DemoSynth.notes("C5:0.5 E5:0.5 G5:0.5 C6:1.5 R:1", bpm: 160)
                + DemoSynth.babble(seconds: episode.3, seed: UInt64(i + 1)))
    }

    /// A playlist (`.m3u`, paths relative to the folder it sits in) across albums.
    static let playlists: [(name: String, text: String)] = [
        (
            "Road Trip.m3u",
            (["#EXTM3U"] + [1, 5, 8, 18, 12].map { tracks[$0].path }).joined(separator: "\n") + "\n"
        )
    ]

    /// Each chord's four notes as eighths, up and down: 8 eighths (4 beats) a chord.
    private static func arpeggios(_ chords: [String]) -> String {
        chords.map { chord in
            let n = chord.split(separator: " ")
            return (n + n.reversed()).map { "\($0):0.5" }.joined(separator: " ")
        }.joined(separator: " ")
    }
}
