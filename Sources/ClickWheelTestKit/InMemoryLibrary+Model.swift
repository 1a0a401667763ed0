import ClickWheelCore

extension InMemoryLibrary {
    /// The derived tables of a track list: ids for artists, albums, genres and composers, and the lists.
    struct Model {
        let tracks: [(id: TrackID, track: FixtureTrack)]
        private(set) var artistIDs: [String: Int64] = [:]
        private(set) var albumIDs: [String: Int64] = [:]
        private(set) var genreIDs: [String: Int64] = [:]
        private(set) var composerIDs: [String: Int64] = [:]

        /// Albums are told apart by name and by being a podcast show.
        static func albumKey(_ t: FixtureTrack) -> String { (t.isPodcast ? "P:" : "M:") + t.album }

        init(_ list: [FixtureTrack]) {
            tracks = list.enumerated().map { (TrackID($0.offset + 1), $0.element) }
            for (_, t) in tracks {
                if artistIDs[t.artist] == nil { artistIDs[t.artist] = Int64(artistIDs.count + 1) }
                if albumIDs[Self.albumKey(t)] == nil { albumIDs[Self.albumKey(t)] = Int64(albumIDs.count + 1) }
                if genreIDs[t.genre] == nil { genreIDs[t.genre] = Int64(genreIDs.count + 1) }
                if let c = t.composer, composerIDs[c] == nil { composerIDs[c] = Int64(composerIDs.count + 1) }
            }
        }

        /// Music: everything but podcasts (audiobook parts included, as their albums and artists are).
        private var music: [(id: TrackID, track: FixtureTrack)] { tracks.filter { !$0.track.isPodcast } }
        /// Songs and Shuffle Songs: music without audiobooks, as on the iPod.
        private var songs: [(id: TrackID, track: FixtureTrack)] { music.filter { !$0.track.isAudiobook } }

        private func sorted(_ rows: [BrowseRow]) -> [BrowseRow] {
            rows.map { (key: SortKey.make($0.title), row: $0) }
                .sorted { ($0.key, $0.row.id) < ($1.key, $1.row.id) }
                .map(\.row)
        }

        private func songRow(_ e: (id: TrackID, track: FixtureTrack)) -> BrowseRow {
            BrowseRow(
                id: e.id, kind: .song, title: e.track.title, detail: e.track.artist,
                initial: SortKey.initial(of: e.track.title))
        }

        private func unique(
            _ source: [(id: TrackID, track: FixtureTrack)], kind: BrowseRow.Kind, name: (FixtureTrack) -> String?,
            ids: [String: Int64], key: (FixtureTrack) -> String? = { _ in nil }
        ) -> [BrowseRow] {
            var seen: Set<Int64> = []
            var rows: [BrowseRow] = []
            for (_, t) in source {
                guard let n = name(t), let id = ids[key(t) ?? n], seen.insert(id).inserted else { continue }
                rows.append(BrowseRow(id: id, kind: kind, title: n, detail: nil, initial: SortKey.initial(of: n)))
            }
            return sorted(rows)
        }

        private func albums(_ source: [(id: TrackID, track: FixtureTrack)]) -> [BrowseRow] {
            unique(source, kind: .album, name: \.album, ids: albumIDs, key: Self.albumKey)
        }

        func rows(of list: BrowseList, playlists: [(name: String, tracks: [TrackID])]) -> [BrowseRow] {
            let songs = self.music
            func artist(_ a: Int64) -> String? { artistIDs.first { $0.value == a }?.key }
            func genre(_ g: Int64) -> String? { genreIDs.first { $0.value == g }?.key }
            switch list {
            case .playlists:
                return sorted(
                    playlists.enumerated().map {
                        BrowseRow(
                            id: Int64($0.offset + 1), kind: .playlist, title: $0.element.name,
                            initial: SortKey.initial(of: $0.element.name))
                    })
            case .artists: return unique(songs, kind: .artist, name: \.artist, ids: artistIDs)
            case .artistsWithoutCompilations:
                return unique(songs.filter { !$0.track.isCompilation }, kind: .artist, name: \.artist, ids: artistIDs)
            case .albums: return albums(songs)
            case .compilations: return albums(songs.filter(\.track.isCompilation))
            case .songs: return sorted(self.songs.map(songRow))
            case .genres: return unique(songs, kind: .genre, name: \.genre, ids: genreIDs)
            case .composers: return unique(songs, kind: .composer, name: \.composer, ids: composerIDs)
            case .smart: return self.songs.reversed().prefix(SmartPlaylist.recentlyAddedLimit).map(songRow)
            case .podcastShows:
                let shows = unique(
                    tracks.filter(\.track.isPodcast), kind: .podcastShow, name: \.album, ids: albumIDs,
                    key: Self.albumKey)
                return shows.map { show in
                    var row = show
                    row.unplayed =
                        tracks.filter { albumIDs[Self.albumKey($0.track)] == show.id && $0.track.unplayed }.count
                    return row
                }
            case .albumsOfArtist(let a): return albums(songs.filter { $0.track.artist == artist(a) })
            case .songsOfArtist(let a):
                return songs.filter { $0.track.artist == artist(a) }
                    .sorted {
                        (SortKey.make($0.track.album), $0.track.trackNumber) < (
                            SortKey.make($1.track.album), $1.track.trackNumber
                        )
                    }
                    .map(songRow)
            case .songsOfAlbum(let al):
                return tracks.filter { albumIDs[Self.albumKey($0.track)] == al }
                    .sorted { $0.track.trackNumber < $1.track.trackNumber }.map(songRow)
            case .artistsOfGenre(let g):
                return unique(
                    songs.filter { $0.track.genre == genre(g) }, kind: .artist, name: \.artist, ids: artistIDs)
            case .albumsOfGenreArtist(let g, let a):
                return albums(songs.filter { $0.track.genre == genre(g) && $0.track.artist == artist(a) })
            case .songsOfGenre(let g): return sorted(songs.filter { $0.track.genre == genre(g) }.map(songRow))
            case .songsOfComposer(let c):
                let name = composerIDs.first { $0.value == c }?.key
                return sorted(songs.filter { $0.track.composer != nil && $0.track.composer == name }.map(songRow))
            case .episodesOfShow(let show):
                return tracks.filter { $0.track.isPodcast && albumIDs[Self.albumKey($0.track)] == show }.reversed().map
                {
                    BrowseRow(
                        id: $0.id, kind: .episode, title: $0.track.title, detail: $0.track.album,
                        initial: SortKey.initial(of: $0.track.title), unplayed: $0.track.unplayed ? 1 : 0,
                        partlyPlayed: $0.track.partlyPlayed)
                }
            case .search(let text):
                let needle = SortKey.fold(text)
                guard !needle.isEmpty else { return [] }
                func hit(_ row: BrowseRow) -> Bool { SortKey.fold(row.title).contains(needle) }
                let found =
                    rows(of: .artists, playlists: playlists).filter(hit)
                    + rows(of: .albums, playlists: playlists).filter(hit)
                return found + rows(of: .songs, playlists: playlists).filter(hit)
            case .audiobooks:
                let parts = tracks.filter(\.track.isAudiobook)
                return albums(parts).map { book in
                    var row = book
                    let mine = parts.filter { albumIDs[Self.albumKey($0.track)] == book.id }.map(\.track)
                    let total = mine.reduce(0) { $0 + $1.durationMS }
                    let heard = mine.reduce(0) {
                        $0 + ($1.partlyPlayed ? $1.positionMS : ($1.unplayed ? 0 : $1.durationMS))
                    }
                    row.progress = total > 0 ? heard * 100 / total : 0
                    row.partlyPlayed = mine.contains(where: \.partlyPlayed)
                    return row
                }
            case .partsOfBook(let book):
                return tracks.filter { $0.track.isAudiobook && albumIDs[Self.albumKey($0.track)] == book }
                    .sorted { $0.track.trackNumber < $1.track.trackNumber }
                    .map {
                        BrowseRow(
                            id: $0.id, kind: .episode, title: $0.track.title, detail: $0.track.artist,
                            initial: SortKey.initial(of: $0.track.title), unplayed: $0.track.unplayed ? 1 : 0,
                            partlyPlayed: $0.track.partlyPlayed)
                    }
            case .songsOfPlaylist(let p):
                guard p >= 1, p <= playlists.count else { return [] }
                return playlists[Int(p) - 1].tracks.compactMap { id in
                    tracks.first { $0.id == id }.map(songRow)
                }
            }
        }
    }
}
