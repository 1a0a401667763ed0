CREATE TRIGGER play_state_counted_delete AFTER DELETE ON play_state WHEN OLD.play_count > 0
BEGIN UPDATE listening_version SET value = value + 1; END;

CREATE TRIGGER play_state_counted_insert AFTER INSERT ON play_state WHEN NEW.play_count > 0
BEGIN UPDATE listening_version SET value = value + 1; END;

CREATE TRIGGER play_state_counted_update AFTER UPDATE OF play_count ON play_state
WHEN (OLD.play_count > 0) != (NEW.play_count > 0)
BEGIN UPDATE listening_version SET value = value + 1; END;

CREATE TRIGGER play_state_song_ord AFTER INSERT ON play_state
BEGIN
    UPDATE play_state SET song_ord = (SELECT ord FROM tracks WHERE id = NEW.track_id) WHERE track_id = NEW.track_id;
END;

CREATE TABLE albums (
    id              INTEGER PRIMARY KEY,
    title           TEXT NOT NULL,
    artist_id       INTEGER NOT NULL REFERENCES artists(id),   -- the album artist
    sort_key        TEXT NOT NULL,
    is_compilation  INTEGER NOT NULL DEFAULT 0,
    year            INTEGER,
    ord             INTEGER, book_ord INTEGER, compilation_ord INTEGER,
    UNIQUE (artist_id, title)
);

CREATE TABLE artists (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    sort_key    TEXT NOT NULL,
    is_various  INTEGER NOT NULL DEFAULT 0,   -- the "Various Artists" entry that holds compilations
    ord         INTEGER
, solo_ord INTEGER);

CREATE TABLE chapters (
    track_id  INTEGER NOT NULL REFERENCES tracks(id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL,    -- 0-based, in playing order
    start_ms  INTEGER NOT NULL,
    end_ms    INTEGER NOT NULL,
    title     TEXT NOT NULL,
    PRIMARY KEY (track_id, idx)
) WITHOUT ROWID;

CREATE TABLE composers (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL UNIQUE,
    sort_key  TEXT NOT NULL,
    ord       INTEGER
);

CREATE TABLE genre_artists (
    genre_id   INTEGER NOT NULL REFERENCES genres(id) ON DELETE CASCADE,
    ord        INTEGER NOT NULL,
    artist_id  INTEGER NOT NULL REFERENCES artists(id) ON DELETE CASCADE,
    PRIMARY KEY (genre_id, ord)
) WITHOUT ROWID;

CREATE TABLE genres (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL UNIQUE,
    sort_key  TEXT NOT NULL,
    ord       INTEGER
);

CREATE TABLE library_meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE listening_version (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    value  INTEGER NOT NULL
);

CREATE TABLE play_state (
    track_id      INTEGER PRIMARY KEY REFERENCES tracks(id) ON DELETE CASCADE,
    play_count    INTEGER NOT NULL DEFAULT 0,
    skip_count    INTEGER NOT NULL DEFAULT 0,
    last_played   INTEGER,         -- unix seconds
    rating        INTEGER,         -- 0–5 stars
    resume_ms     INTEGER,         -- podcast/audiobook position
    played        INTEGER NOT NULL DEFAULT 0
, resume_saved_at INTEGER, last_skipped INTEGER, song_ord INTEGER);

CREATE TABLE playlist_entries (
    playlist_id  INTEGER NOT NULL REFERENCES playlists(id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,
    target       TEXT NOT NULL,    -- the entry resolved against the music folder
    track_id     INTEGER REFERENCES tracks(id) ON DELETE SET NULL,
    PRIMARY KEY (playlist_id, position)
) WITHOUT ROWID;

CREATE TABLE playlists (
    id        INTEGER PRIMARY KEY,
    path      TEXT UNIQUE,         -- the .m3u/.m3u8 file, relative to the music folder; NULL for On-The-Go
    name      TEXT NOT NULL,
    sort_key  TEXT NOT NULL,
    size      INTEGER,
    mtime_ns  INTEGER,
    is_on_the_go INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE podcast_episodes (
    track_id      INTEGER PRIMARY KEY REFERENCES tracks(id) ON DELETE CASCADE,
    show_id       INTEGER NOT NULL REFERENCES podcast_shows(id),
    release_date  TEXT,          -- TDRL, else TDRC, as tagged
    description   TEXT,
    feed_url      TEXT
);

CREATE TABLE podcast_shows (
    id        INTEGER PRIMARY KEY,
    title     TEXT NOT NULL UNIQUE,
    sort_key  TEXT NOT NULL,
    feed_url  TEXT,
    ord       INTEGER
);

CREATE TABLE resume_state (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    queue        BLOB NOT NULL,     -- track ids in play order (already shuffled when shuffle is on)
    unshuffled   BLOB,              -- the list order while shuffle is on, else NULL
    current      INTEGER,           -- index in queue of the current entry, NULL when none
    position_ms  INTEGER NOT NULL DEFAULT 0,
    status       TEXT NOT NULL,     -- stopped, playing, paused
    saved_at     INTEGER NOT NULL   -- unix milliseconds of the checkpoint
);

CREATE TABLE scan_problems (
    path        TEXT NOT NULL,
    path_bytes  BLOB,
    size        INTEGER NOT NULL,
    mtime_ns    INTEGER NOT NULL,
    skipped     INTEGER NOT NULL,   -- 1: not indexed; 0: indexed with this problem
    kind        TEXT NOT NULL,
    reason      TEXT NOT NULL
);

CREATE TABLE scrobble_queue (
    id             INTEGER PRIMARY KEY,   -- the order listens happened in
    artist         TEXT NOT NULL,
    album          TEXT NOT NULL,
    title          TEXT NOT NULL,
    track_number   INTEGER,
    duration_s     INTEGER NOT NULL,
    rating         TEXT NOT NULL CHECK (rating IN ('L', 'S')),
    musicbrainz_trackid TEXT,
    boot_id        TEXT NOT NULL,         -- /proc/sys/kernel/random/boot_id when it was listened to
    start_boot_ms  INTEGER NOT NULL,      -- CLOCK_BOOTTIME (ms) when its play-through began
    start_unix     INTEGER,               -- unix seconds it began; NULL until the wall clock is known right
    log_offset     INTEGER                -- the log's size before the append holding its line; NULL: not appended
);

CREATE TABLE stickers (
    track_id  INTEGER NOT NULL REFERENCES tracks(id) ON DELETE CASCADE,
    name      TEXT NOT NULL,
    value     TEXT NOT NULL,
    PRIMARY KEY (track_id, name)
) WITHOUT ROWID;

CREATE TABLE subscription_episodes (
    id               INTEGER PRIMARY KEY,
    subscription_id  INTEGER NOT NULL REFERENCES subscriptions(id) ON DELETE CASCADE,
    guid             TEXT NOT NULL,       -- the item's guid (else its enclosure's address, else its title)
    title            TEXT NOT NULL,
    published_at     INTEGER,             -- unix seconds
    enclosure_url    TEXT,                -- NULL: no audio to download (listed only)
    enclosure_type   TEXT,
    enclosure_length INTEGER,
    duration_ms      INTEGER,
    description      TEXT,
    image_url        TEXT,
    state            TEXT NOT NULL DEFAULT 'listed',  -- listed | downloading | downloaded | failed | deleted
    path             TEXT,                -- the file, relative to the music folder, once downloaded
    bytes            INTEGER NOT NULL DEFAULT 0,      -- downloaded so far (the device shows progress)
    error            TEXT,                -- why the last download failed
    UNIQUE (subscription_id, guid)
);

CREATE TABLE subscriptions (
    id            INTEGER PRIMARY KEY,
    url           TEXT NOT NULL UNIQUE,   -- where the feed is fetched (a permanent redirect replaces it)
    title         TEXT,                   -- the channel's, once fetched
    author        TEXT,
    description   TEXT,
    image_url     TEXT,
    keep          INTEGER,                -- newest episodes kept downloaded; NULL: the configuration's default
    etag          TEXT,                   -- the validators of the last full answer (conditional GET)
    last_modified TEXT,
    added_at      INTEGER NOT NULL,       -- unix seconds
    checked_at    INTEGER,                -- the last attempt
    updated_at    INTEGER,                -- the last attempt that succeeded (a new feed or a 304)
    error         TEXT,                   -- why the last attempt failed; NULL when it succeeded
    failures      INTEGER NOT NULL DEFAULT 0,  -- attempts failed in a row (the retry's backoff)
    from_config   INTEGER NOT NULL DEFAULT 0   -- listed in the configuration file (not deleted over the socket)
);

CREATE TABLE track_values (
    track_id  INTEGER NOT NULL REFERENCES tracks(id) ON DELETE CASCADE,
    field     TEXT NOT NULL,     -- artist, album_artist, genre, composer
    position  INTEGER NOT NULL,
    value     TEXT NOT NULL,
    PRIMARY KEY (track_id, field, position)
) WITHOUT ROWID;

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
, is_audiobook INTEGER NOT NULL DEFAULT 0, sample_format TEXT);

CREATE INDEX albums_artist ON albums(artist_id, year, sort_key);

CREATE INDEX albums_book_ord ON albums(book_ord) WHERE book_ord IS NOT NULL;

CREATE INDEX albums_compilation_ord ON albums(compilation_ord);

CREATE INDEX albums_ord ON albums(ord);

CREATE INDEX albums_sort ON albums(sort_key, title, id);

CREATE INDEX artists_ord ON artists(ord);

CREATE INDEX artists_solo_ord ON artists(solo_ord);

CREATE INDEX artists_sort ON artists(sort_key, name);

CREATE INDEX composers_ord ON composers(ord);

CREATE INDEX genres_ord ON genres(ord);

CREATE INDEX play_state_played_ord ON play_state(song_ord) WHERE play_count > 0 AND song_ord IS NOT NULL;

CREATE INDEX play_state_plays ON play_state(play_count DESC, last_played DESC) WHERE play_count > 0;

CREATE INDEX play_state_rating ON play_state(rating DESC, play_count DESC) WHERE rating >= 8 AND song_ord IS NOT NULL;

CREATE INDEX play_state_recent ON play_state(last_played DESC) WHERE last_played IS NOT NULL;

CREATE INDEX playlist_entries_track ON playlist_entries(track_id);

CREATE INDEX podcast_episodes_show ON podcast_episodes(show_id, release_date DESC, track_id DESC);

CREATE INDEX podcast_shows_ord ON podcast_shows(ord);

CREATE INDEX scan_problems_path ON scan_problems(path, ifnull(path_bytes, x''));

CREATE INDEX stickers_name ON stickers(name, value);

CREATE INDEX subscription_episodes_newest ON subscription_episodes(subscription_id, published_at DESC, id DESC);

CREATE INDEX subscription_episodes_path ON subscription_episodes(path) WHERE path IS NOT NULL;

CREATE INDEX tracks_added ON tracks(added_at DESC, id DESC);

CREATE INDEX tracks_album ON tracks(album_id, disc_number, track_number, title_key);

CREATE INDEX tracks_artist ON tracks(artist_id, is_podcast, album_key, album_id, disc_number, track_number, title_key);

CREATE INDEX tracks_audiobook ON tracks(album_id) WHERE is_audiobook = 1;

CREATE INDEX tracks_composer ON tracks(composer_id, title_key);

CREATE INDEX tracks_genre ON tracks(genre_id, is_podcast, artist_key, album_key, disc_number, track_number);

CREATE INDEX tracks_genre_artist ON tracks(genre_id, artist_id, album_id);

CREATE INDEX tracks_move ON tracks(size, fingerprint);

CREATE INDEX tracks_ord ON tracks(ord);

CREATE UNIQUE INDEX tracks_path ON tracks(path, ifnull(path_bytes, x''));

CREATE INDEX tracks_path_mtime ON tracks(path, mtime_ns);

CREATE INDEX tracks_sort ON tracks(title_key, artist_key, album_key, id);
