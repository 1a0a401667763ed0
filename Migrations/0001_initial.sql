-- ClickWheel library schema 1. Append-only: never edit a shipped migration, add 0002_….sql instead.
-- Sort keys (*sort_key) are computed by the indexer: case- and diacritic-folded, leading articles
-- dropped unless a sort tag says otherwise, digit runs padded so numbers compare as numbers.
-- `ord` columns are the row's position in its menu list, recomputed after every scan that changed
-- something, so any page of any long list is an index range lookup, never an OFFSET walk.

CREATE TABLE artists (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    sort_key    TEXT NOT NULL,
    is_various  INTEGER NOT NULL DEFAULT 0,   -- the "Various Artists" entry that holds compilations
    ord         INTEGER
);
CREATE INDEX artists_ord ON artists(ord);
CREATE INDEX artists_sort ON artists(sort_key, name);  -- letter jump: where an initial's rows begin

CREATE TABLE albums (
    id              INTEGER PRIMARY KEY,
    title           TEXT NOT NULL,
    artist_id       INTEGER NOT NULL REFERENCES artists(id),   -- the album artist
    sort_key        TEXT NOT NULL,
    is_compilation  INTEGER NOT NULL DEFAULT 0,
    year            INTEGER,
    ord             INTEGER,
    UNIQUE (artist_id, title)
);
CREATE INDEX albums_ord ON albums(ord);
CREATE INDEX albums_sort ON albums(sort_key, title, id);
CREATE INDEX albums_artist ON albums(artist_id, year, sort_key);

CREATE TABLE genres (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL UNIQUE,
    sort_key  TEXT NOT NULL,
    ord       INTEGER
);
CREATE INDEX genres_ord ON genres(ord);

-- The artists of each genre in Artists-menu order (Genres → genre → artists), rebuilt with the `ord` columns.
CREATE TABLE genre_artists (
    genre_id   INTEGER NOT NULL REFERENCES genres(id) ON DELETE CASCADE,
    ord        INTEGER NOT NULL,
    artist_id  INTEGER NOT NULL REFERENCES artists(id) ON DELETE CASCADE,
    PRIMARY KEY (genre_id, ord)
) WITHOUT ROWID;

CREATE TABLE composers (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL UNIQUE,
    sort_key  TEXT NOT NULL,
    ord       INTEGER
);
CREATE INDEX composers_ord ON composers(ord);

CREATE TABLE podcast_shows (
    id        INTEGER PRIMARY KEY,
    title     TEXT NOT NULL UNIQUE,
    sort_key  TEXT NOT NULL,
    feed_url  TEXT,
    ord       INTEGER
);
CREATE INDEX podcast_shows_ord ON podcast_shows(ord);

CREATE TABLE tracks (
    id              INTEGER PRIMARY KEY,
    path            TEXT NOT NULL,   -- relative to the music folder; invalid UTF-8 bytes shown as U+FFFD
    path_bytes      BLOB,            -- the exact file name bytes, only when they are not valid UTF-8
    size            INTEGER NOT NULL,
    mtime_ns        INTEGER NOT NULL,
    title           TEXT NOT NULL,
    artist          TEXT NOT NULL,   -- display form; several values joined by "; " (exact lists in track_values)
    album           TEXT NOT NULL,
    album_artist    TEXT,            -- TPE2 as tagged (NULL when absent)
    genre           TEXT,
    composer        TEXT,
    comment         TEXT,
    year            INTEGER,
    date            TEXT,            -- the date as tagged: "1999" or "2004-05-06"
    track_number    INTEGER,
    track_total     INTEGER,
    disc_number     INTEGER,
    disc_total      INTEGER,
    duration_ms     INTEGER NOT NULL,  -- exact gapless length, rounded to the millisecond
    samples         INTEGER,           -- exact gapless length in samples per channel
    bitrate         INTEGER,           -- average kbit/s
    sample_rate     INTEGER,
    channels        INTEGER,
    is_vbr          INTEGER NOT NULL DEFAULT 0,
    is_compilation  INTEGER NOT NULL DEFAULT 0,
    has_artwork     INTEGER NOT NULL DEFAULT 0,
    artwork_mime    TEXT,              -- first picture (front cover preferred): where its bytes are
    artwork_offset  INTEGER,
    artwork_size    INTEGER,
    rg_track_gain   REAL,
    rg_track_peak   REAL,
    rg_album_gain   REAL,
    rg_album_peak   REAL,
    sort_title      TEXT,            -- sort tags as tagged (TSOT, TSOP, TSOA, TSO2)
    sort_artist     TEXT,
    sort_album      TEXT,
    sort_album_artist TEXT,
    title_key       TEXT NOT NULL,   -- computed sort keys
    artist_key      TEXT NOT NULL,
    album_key       TEXT NOT NULL,
    tag_format      TEXT NOT NULL,   -- none, id3v1, id3v1.1, id3v2.2, id3v2.3, id3v2.4
    musicbrainz_trackid TEXT,
    is_podcast      INTEGER NOT NULL DEFAULT 0,
    artist_id       INTEGER NOT NULL REFERENCES artists(id),   -- the album artist's row: what Artists lists
    album_id        INTEGER NOT NULL REFERENCES albums(id),
    genre_id        INTEGER REFERENCES genres(id),
    composer_id     INTEGER REFERENCES composers(id),
    fingerprint     INTEGER NOT NULL,  -- hash of tags and length: finds a moved file again
    added_at        INTEGER NOT NULL,  -- unix seconds
    ord             INTEGER            -- position in Songs
);
CREATE UNIQUE INDEX tracks_path ON tracks(path, ifnull(path_bytes, x''));
CREATE INDEX tracks_ord ON tracks(ord);
CREATE INDEX tracks_sort ON tracks(title_key, artist_key, album_key, id);
CREATE INDEX tracks_album ON tracks(album_id, disc_number, track_number, title_key);
-- Sub-lists page by OFFSET over these; every column the WHERE needs is in the index, so skipped rows
-- never touch the table.
CREATE INDEX tracks_artist ON tracks(artist_id, is_podcast, album_key, album_id, disc_number, track_number, title_key);
CREATE INDEX tracks_genre ON tracks(genre_id, is_podcast, artist_key, album_key, disc_number, track_number);
CREATE INDEX tracks_genre_artist ON tracks(genre_id, artist_id, album_id);
CREATE INDEX tracks_composer ON tracks(composer_id, title_key);
CREATE INDEX tracks_added ON tracks(added_at DESC, id DESC);
CREATE INDEX tracks_move ON tracks(size, fingerprint);

-- Exact multi-valued tags (ID3v2.4 NUL-separated values), one row a value; only for tracks with several.
CREATE TABLE track_values (
    track_id  INTEGER NOT NULL REFERENCES tracks(id) ON DELETE CASCADE,
    field     TEXT NOT NULL,     -- artist, album_artist, genre, composer
    position  INTEGER NOT NULL,
    value     TEXT NOT NULL,
    PRIMARY KEY (track_id, field, position)
) WITHOUT ROWID;

CREATE TABLE podcast_episodes (
    track_id      INTEGER PRIMARY KEY REFERENCES tracks(id) ON DELETE CASCADE,
    show_id       INTEGER NOT NULL REFERENCES podcast_shows(id),
    release_date  TEXT,          -- TDRL, else TDRC, as tagged
    description   TEXT,
    feed_url      TEXT
);
CREATE INDEX podcast_episodes_show ON podcast_episodes(show_id, release_date DESC, track_id DESC);

-- What a listener did with a track. Survives rescans and moves (the row follows the track id).
CREATE TABLE play_state (
    track_id      INTEGER PRIMARY KEY REFERENCES tracks(id) ON DELETE CASCADE,
    play_count    INTEGER NOT NULL DEFAULT 0,
    skip_count    INTEGER NOT NULL DEFAULT 0,
    last_played   INTEGER,         -- unix seconds
    rating        INTEGER,         -- 0–5 stars
    resume_ms     INTEGER,         -- podcast/audiobook position
    played        INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE playlists (
    id        INTEGER PRIMARY KEY,
    path      TEXT UNIQUE,         -- the .m3u/.m3u8 file, relative to the music folder; NULL for On-The-Go
    name      TEXT NOT NULL,
    sort_key  TEXT NOT NULL,
    size      INTEGER,
    mtime_ns  INTEGER,
    is_on_the_go INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE playlist_entries (
    playlist_id  INTEGER NOT NULL REFERENCES playlists(id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,
    target       TEXT NOT NULL,    -- the entry resolved against the music folder
    track_id     INTEGER REFERENCES tracks(id) ON DELETE SET NULL,
    PRIMARY KEY (playlist_id, position)
) WITHOUT ROWID;
CREATE INDEX playlist_entries_track ON playlist_entries(track_id);

-- Small facts about the library itself: e.g. `scan_unfinished` = 1 while a scan's last step is pending,
-- so a scan killed before it ends is finished by the next one even when no file changed.
CREATE TABLE library_meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
) WITHOUT ROWID;

-- Files skipped, or indexed with a problem; kept so that a rescan that rereads nothing still reports them.
CREATE TABLE scan_problems (
    path        TEXT NOT NULL,
    path_bytes  BLOB,
    size        INTEGER NOT NULL,
    mtime_ns    INTEGER NOT NULL,
    skipped     INTEGER NOT NULL,   -- 1: not indexed; 0: indexed with this problem
    kind        TEXT NOT NULL,
    reason      TEXT NOT NULL
);
CREATE INDEX scan_problems_path ON scan_problems(path, ifnull(path_bytes, x''));
