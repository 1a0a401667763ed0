// clickwheel-bench: times the library's menu queries (LibraryReading) on an existing database.
//
//   swift run -c release clickwheel-bench DB [PAGES] [--renumber] [--engine STEPS]
//
// For every list the menus page through, fetches PAGES random pages of 20 rows (plus the first and the
// last page) and prints p50/p99/max per list. Used by contrib/bench/query_bench.sh on a 100k-track
// database; the goal is any page in <= 1 ms.
import ClickWheelCore
import Foundation
import GRDB
import Library

let args = CommandLine.arguments
guard args.count >= 2 else {
    FileHandle.standardError.write(Data("usage: clickwheel-bench DB [PAGES]\n".utf8))
    exit(64)
}
let pages = args.count > 2 ? Int(args[2]) ?? 500 : 500
let engineStepCount = args.firstIndex(of: "--engine").flatMap { args.count > $0 + 1 ? Int(args[$0 + 1]) : nil }
let pool = try DatabasePool(path: args[1])
if CommandLine.arguments.contains("--renumber") { try LibraryMaintenance.renumber(pool) }
if CommandLine.arguments.contains("--listening") {
    // A listener's history for the smart playlists: one song in ten played (1–13 times, spread in
    // time), one in twenty rated 4 or 5 stars, one in seven skipped.
    try pool.write { db in
        try db.execute(sql: """
            INSERT INTO play_state (track_id, play_count, last_played) SELECT id, id % 13 + 1, 1700000000 + id * 7
            FROM tracks WHERE id % 10 = 0 AND is_podcast = 0
            ON CONFLICT(track_id) DO UPDATE SET play_count = excluded.play_count, last_played = excluded.last_played;
            INSERT INTO play_state (track_id, rating) SELECT id, 8 + id % 3 FROM tracks WHERE id % 20 = 0 AND is_podcast = 0
            ON CONFLICT(track_id) DO UPDATE SET rating = excluded.rating;
            INSERT INTO play_state (track_id, skip_count) SELECT id, 1 FROM tracks WHERE id % 7 = 0 AND is_podcast = 0
            ON CONFLICT(track_id) DO UPDATE SET skip_count = excluded.skip_count;
            """)
    }
}
let store = LibraryStore(pool)

func biggest(_ sql: String) throws -> Int64 { try pool.read { try Int64.fetchOne($0, sql: sql)! } }
let artist = try biggest("SELECT artist_id FROM tracks WHERE is_podcast = 0 GROUP BY artist_id ORDER BY count(*) DESC LIMIT 1")
let album = try biggest("SELECT album_id FROM tracks GROUP BY album_id ORDER BY count(*) DESC LIMIT 1")
let genre = try biggest("SELECT genre_id FROM tracks WHERE genre_id IS NOT NULL GROUP BY genre_id ORDER BY count(*) DESC LIMIT 1")
let composer = try? biggest("SELECT composer_id FROM tracks WHERE composer_id IS NOT NULL GROUP BY composer_id ORDER BY count(*) DESC LIMIT 1")
let show = try? biggest("SELECT show_id FROM podcast_episodes GROUP BY show_id ORDER BY count(*) DESC LIMIT 1")
let playlist = try? biggest("SELECT playlist_id FROM playlist_entries GROUP BY playlist_id ORDER BY count(*) DESC LIMIT 1")
let genreArtist = try biggest("SELECT artist_id FROM tracks WHERE genre_id = \(genre) GROUP BY artist_id ORDER BY count(*) DESC LIMIT 1")

var lists: [(String, BrowseList)] = [
    ("Songs", .songs), ("Artists", .artists), ("Artists w/o compilations", .artistsWithoutCompilations),
    ("Albums", .albums), ("Compilations", .compilations), ("Genres", .genres), ("Composers", .composers),
    ("Podcasts", .podcastShows), ("Playlists", .playlists), ("Recently Added", .smart(.recentlyAdded)), ("Never Played", .smart(.neverPlayed)),
    ("My Top Rated", .smart(.topRated)), ("Top 25 Most Played", .smart(.mostPlayed)),
    ("Recently Played", .smart(.recentlyPlayed)),
    ("Albums of busiest artist", .albumsOfArtist(artist)), ("Songs of busiest artist", .songsOfArtist(artist)),
    ("Songs of biggest album", .songsOfAlbum(album)), ("Artists of biggest genre", .artistsOfGenre(genre)),
    ("Albums of genre+artist", .albumsOfGenreArtist(genre: genre, artist: genreArtist)),
    ("Songs of biggest genre", .songsOfGenre(genre)),
]
if let composer { lists.append(("Songs of busiest composer", .songsOfComposer(composer))) }
if let show { lists.append(("Episodes of biggest show", .episodesOfShow(show))) }
if let playlist { lists.append(("Songs of biggest playlist", .songsOfPlaylist(playlist))) }

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
let songs = try store.count(of: .songs)
print("library: \(songs) songs; \(pages) random pages of 20 rows per list (+ first and last)")
print("list".padding(toLength: 28, withPad: " ", startingAt: 0) + "    rows   count µs   p50 µs   p99 µs   max µs")
var worst = 0.0
var generator = SystemRandomNumberGenerator()
for (name, list) in lists {
    var t = now()
    let count = try store.count(of: list)
    let countMicros = Double(now() - t) / 1000
    var times: [Double] = []
    var starts = [0, max(0, count - 20)]
    for _ in 0..<pages { starts.append(count > 20 ? Int.random(in: 0..<(count - 20), using: &generator) : 0) }
    for s in starts {
        t = now()
        let rows = try store.rows(of: list, in: s..<(s + 20))
        times.append(Double(now() - t) / 1000)
        precondition(rows.count == min(20, count - s), "short page in \(name)")
    }
    times.sort()
    let p = { (q: Double) in times[min(times.count - 1, Int(q * Double(times.count)))] }
    worst = max(worst, p(0.99))
    print(name.padding(toLength: 28, withPad: " ", startingAt: 0)
        + String(format: " %7d %9.0f %8.0f %8.0f %8.0f", count, countMicros, p(0.5), p(0.99), times.last!))
}
print(String(format: "worst p99 over all lists: %.0f µs (goal: <= 1000 µs)", worst))
if let engineStepCount { print(engineSteps(library: store, steps: engineStepCount)) }
