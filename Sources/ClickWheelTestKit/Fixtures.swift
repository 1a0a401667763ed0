import ClickWheelCore

/// Ready-made fixture libraries for tests and demos.
public enum Fixtures {
    /// 45 artists (articles, accents, symbols), two albums each of 2–4 songs, four genres, a few
    /// composers, one podcast show with three episodes and two playlists. Deterministic.
    public static func sampleTracks() -> [FixtureTrack] {
        let artists = [
            "ABBA", "AC/DC", "Aerosmith", "a-ha", "The Beatles", "Björk", "Blondie", "Bob Dylan", "Coldplay",
            "The Cure", "Daft Punk", "David Bowie", "Depeche Mode", "Dire Straits", "The Doors", "Eagles",
            "Elton John", "Eurythmics", "Fleetwood Mac", "Foo Fighters", "Genesis", "Gorillaz", "Green Day",
            "Heart", "INXS", "Iron Maiden", "Jamiroquai", "Joy Division", "Kraftwerk", "Led Zeppelin", "Madonna",
            "Metallica", "Motörhead", "Muse", "Nirvana", "Oasis", "Pink Floyd", "Portishead", "Queen",
            "Radiohead", "R.E.M.", "Sigur Rós", "The Smiths", "Talking Heads", "U2",
        ]
        let genres = ["Rock", "Pop", "Electronic", "Jazz"]
        let words = ["Blue", "Night", "Electric", "Summer", "Heart", "Road", "Dream", "Fire", "Rain", "Echo"]
        var tracks: [FixtureTrack] = []
        for (a, artist) in artists.enumerated() {
            for album in 0..<2 {
                let albumTitle =
                    "\(words[(a + album * 3) % words.count]) \(album == 0 ? "Days" : "Nights") of \(artist)"
                for n in 1...(2 + (a + album) % 3) {
                    let title = "\(words[(a * 7 + album * 3 + n) % words.count]) Song \(a * 10 + album * 5 + n)"
                    tracks.append(
                        FixtureTrack(
                            title: title, artist: artist, album: albumTitle, genre: genres[a % genres.count],
                            composer: a % 5 == 0 ? "Composer \(a / 5)" : nil, trackNumber: n,
                            durationMS: 150_000 + (a * 37 + n * 11) % 120 * 1000))
                }
            }
        }
        tracks.append(contentsOf: [
            FixtureTrack(
                title: "Episode 1: Hello", artist: "Radio Show", album: "The Talk Show", genre: "Podcast",
                durationMS: 1_800_000, isPodcast: true),
            FixtureTrack(
                title: "Episode 2: Wheels", artist: "Radio Show", album: "The Talk Show", genre: "Podcast",
                durationMS: 1_900_000, isPodcast: true, unplayed: false, partlyPlayed: true),
            FixtureTrack(
                title: "Episode 3: Clicks", artist: "Radio Show", album: "The Talk Show", genre: "Podcast",
                durationMS: 2_000_000, isPodcast: true, unplayed: true),
        ])
        return tracks
    }

    /// The sample library with two playlists.
    public static func sample() -> InMemoryLibrary {
        InMemoryLibrary(
            tracks: sampleTracks(),
            playlists: [(name: "Road Trip", tracks: [3, 1, 7, 12]), (name: "Chill", tracks: [5])])
    }

    /// `count` songs by one artist, titled "Song 00001"…, for long-list tests.
    public static func numbered(_ count: Int) -> InMemoryLibrary {
        InMemoryLibrary(
            tracks: (1...count).map { i in
                let padded = String(i)
                let title = "Song " + String(repeating: "0", count: max(0, 5 - padded.count)) + padded
                return FixtureTrack(title: title, artist: "Numbers", album: "Many", trackNumber: i)
            })
    }

    /// Two songs and two audiobooks: The Long Road (three parts: the first finished, the second half
    /// heard and chaptered, the third new: 50 %) and A Short Tale (one long chaptered file, never begun).
    public static func audiobooks() -> InMemoryLibrary {
        let road = [
            Chapter(startMS: 0, endMS: 600_000, title: "The Road Begins"),
            Chapter(startMS: 600_000, endMS: 1_500_000, title: "A Long Detour Through the Hills"),
            Chapter(startMS: 1_500_000, endMS: 2_400_000, title: "Home"),
        ]
        let tale = (0..<4).map { Chapter(startMS: $0 * 900_000, endMS: ($0 + 1) * 900_000, title: "Chapter \($0 + 1)") }
        func part(_ n: Int, _ ms: Int, played: Bool, at position: Int = 0, _ chapters: [Chapter] = []) -> FixtureTrack {
            FixtureTrack(
                title: "Part \(n)", artist: "Ann Author", album: "The Long Road", genre: "Audiobook", trackNumber: n,
                durationMS: ms, unplayed: !played && position == 0, partlyPlayed: position > 0, isAudiobook: true,
                positionMS: position, chapters: chapters)
        }
        return InMemoryLibrary(tracks: [
            FixtureTrack(title: "First Song", artist: "Band", album: "Record", trackNumber: 1),
            FixtureTrack(title: "Second Song", artist: "Band", album: "Record", trackNumber: 2),
            part(1, 1_800_000, played: true),
            part(2, 2_400_000, played: false, at: 1_200_000, road),
            part(3, 1_800_000, played: false),
            FixtureTrack(
                title: "A Short Tale", artist: "Bo Teller", album: "A Short Tale", genre: "Audiobook",
                durationMS: 3_600_000, unplayed: true, isAudiobook: true, chapters: tale),
        ])
    }
}
