import ClickWheelCore
import Foundation
import GRDB
@testable import Library
import Testing

/// The menu queries over the indexed fixture library.
@Suite struct LibraryStoreTests {
    static let store = LibraryStore(FixtureIndexTests.indexed.pool)
    var store: LibraryStore { Self.store }

    func titles(_ list: BrowseList, _ range: Range<Int> = 0..<100) throws -> [String] {
        try store.rows(of: list, in: range).map(\.title)
    }

    func id(_ list: BrowseList, titled title: String) throws -> Int64 {
        try #require(try store.rows(of: list, in: 0..<1000).first { $0.title == title }).id
    }

    @Test func songsArePagedInSortOrderWithoutPodcasts() throws {
        let count = try store.count(of: .songs)
        let podcasts = FixtureIndexTests.expected.tracks.values.filter { $0["is_podcast"] == .bool(true) }.count
        #expect(count == FixtureIndexTests.expected.tracks.count - podcasts)
        let all = try titles(.songs)
        #expect(all.count == count)
        // Pages concatenate to the whole list, and out-of-range pages are empty.
        let paged = try stride(from: 0, to: count, by: 7).flatMap { try titles(.songs, $0..<min(count, $0 + 7)) }
        #expect(paged == all)
        #expect(try titles(.songs, count..<count + 20).isEmpty)
        // "The Beatles"' song "Abbey Lane" sorts under A; digits come last.
        #expect(all.first == "Abbey Lane")
        #expect(try store.index(of: try id(.songs, titled: "Ten"), in: .songs) == all.firstIndex(of: "Ten"))
    }

    @Test func artistsAreAlbumArtistsWithCompilationsUnderVariousArtists() throws {
        let artists = try titles(.artists)
        #expect(artists.contains("Various Artists"))
        #expect(!artists.contains("Amélie Laurent"))  // her track is on a compilation
        #expect(artists.firstIndex(of: "The Beatles")! < artists.firstIndex(of: "Élan Vital")!)
        #expect(artists.suffix(2) == ["2 Unlimited", "10cc"])
        #expect(!artists.contains("Folder Host"))  // podcasts are not music
        let rows = try store.rows(of: .artists, in: 0..<100)
        #expect(rows.first { $0.title == "The Beatles" }?.initial == "B")
        #expect(rows.first { $0.title == "10cc" }?.initial == "#")
    }

    @Test func albumsOfAnArtistAndTheirSongsInDiscTrackOrder() throws {
        let artist = try id(.artists, titled: "Duration Tester")
        let albums = try titles(.albumsOfArtist(artist))
        #expect(albums == ["Durations"])
        let album = try store.rows(of: .albumsOfArtist(artist), in: 0..<10)[0].id
        #expect(try titles(.songsOfAlbum(album)) == ["CBR Info", "VBR Xing", "VBR no Xing", "CBR no Info", "MPEG-2 22050 mono", "48000 Hz"])
        #expect(try titles(.songsOfArtist(artist)).count == 6)
        let ids = try store.trackIDs(of: .songsOfAlbum(album))
        #expect(ids.count == 6)
        #expect(try store.track(ids[2])?.title == "VBR no Xing")
        #expect(try store.track(ids[2])?.durationMS == 496)  // 21888 samples at 44.1 kHz
    }

    @Test func genresLeadToArtistsAndAlbums() throws {
        let genres = try titles(.genres)
        #expect(genres.contains("Rock") && genres.contains("Shoegaze"))
        let shoegaze = try id(.genres, titled: "Shoegaze")
        #expect(try titles(.artistsOfGenre(shoegaze)) == ["The Beatles"])
        let beatles = try id(.artists, titled: "The Beatles")
        #expect(try titles(.albumsOfGenreArtist(genre: shoegaze, artist: beatles)) == ["The Green Album"])
        #expect(try titles(.songsOfGenre(shoegaze)) == ["Abbey Lane"])
    }

    @Test func composersListTheirSongs() throws {
        let composer = try id(.composers, titled: "Françoise Hardi")
        #expect(try titles(.songsOfComposer(composer)) == ["Déjà Vu"])
    }

    @Test func podcastShowsCountUnplayedAndListEpisodesNewestFirst() throws {
        let shows = try store.rows(of: .podcastShows, in: 0..<10)
        #expect(shows.map(\.title) == ["Flag Cast", "Genre Cast", "Show Name"])
        let show = shows.first { $0.title == "Show Name" }!
        #expect(show.unplayed == 2)
        let episodes = try store.rows(of: .episodesOfShow(show.id), in: 0..<10)
        #expect(episodes.map(\.title) == ["Folder Episode", "Older Folder Episode"])
        #expect(episodes.allSatisfy { $0.unplayed == 1 && !$0.partlyPlayed })
    }

    @Test func playlistsListResolvedTracksInFileOrder() throws {
        #expect(try titles(.playlists) == ["Empty", "Mix", "Trip"])
        let mix = try id(.playlists, titled: "Mix")
        #expect(try titles(.songsOfPlaylist(mix)).count == 4)  // one entry points at nothing
        #expect(try store.count(of: .songsOfPlaylist(try id(.playlists, titled: "Empty"))) == 0)
    }

    @Test func recentlyAddedAndStatistics() throws {
        #expect(try store.count(of: .smart(.recentlyAdded)) == min(100, try store.count(of: .songs)))
        let stats = try store.statistics()
        #expect(stats.songs == (try store.count(of: .songs)))
        #expect(stats.podcastEpisodes == 4)
        #expect(stats.artists == (try store.count(of: .artists)))
        #expect(stats.totalDurationMS > 0)
    }
}

extension LibraryStoreTests {
    @Test func searchFindsArtistsAlbumsThenSongsIgnoringCaseAndAccents() throws {
        let rows = try store.rows(of: .search("ARZTE"), in: 0..<50)
        #expect(rows.map(\.kind) == [.artist, .album])
        #expect(rows.map(\.title) == ["Ärzte", "Ärztekammer"])
        #expect(try store.count(of: .search("arzte")) == 2)
        #expect(try store.trackIDs(of: .search("arzte")).isEmpty)
        #expect(try store.rows(of: .search("zah"), in: 0..<5).map(\.title) == ["Zäh"])
        #expect(try store.trackIDs(of: .search("zah")).count == 1)
        #expect(try store.count(of: .search("")) == 0)
        let vu = try store.rows(of: .search("deja"), in: 0..<10)
        #expect(vu.contains { $0.kind == .song && $0.title == "Déjà Vu" })
        // Paging through the combined list gives the same rows.
        let all = try store.rows(of: .search("a"), in: 0..<1000)
        let paged = try stride(from: 0, to: all.count, by: 3).flatMap { try store.rows(of: .search("a"), in: $0..<$0 + 3) }
        #expect(paged == all)
    }

    @Test func trackInfoCarriesIDsAndRating() throws {
        let id = try id(.songs, titled: "Ten")
        let info = try #require(try store.track(id))
        #expect(info.albumID != nil && info.artistID != nil)
        #expect(info.rating == 0)
    }
}

extension LibraryStoreTests {
    @Test(arguments: [BrowseList.songs, .artists, .albums, .genres, .composers, .podcastShows])
    func letterBlocksFromTheIndexEqualABinarySearchOverTheRows(list: BrowseList) throws {
        let count = try store.count(of: list)
        #expect(count > 0)
        for i in 0..<count {
            let fast = try store.initialBlock(containing: i, in: list)
            #expect(fast == (try store.searchInitialBlock(containing: i, in: list)), "\(list) row \(i)")
            #expect(fast?.contains(i) == true)
        }
        #expect(try store.initialBlock(containing: count, in: list) == nil)
    }
}
