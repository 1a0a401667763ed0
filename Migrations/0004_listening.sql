-- ClickWheel library schema 4: what you listen to, shared (MPD stickers, the iPod's smart playlists).
-- Append-only, like 0001–0003.

-- Ratings move to the scale MPD clients use for the `rating` sticker: 0–10, two per star, so a
-- client's half star is kept (the wheel moves by whole stars).
UPDATE play_state SET rating = rating * 2 WHERE rating IS NOT NULL;

-- When a track was last skipped (unix seconds): the `lastSkipped` sticker.
ALTER TABLE play_state ADD COLUMN last_skipped INTEGER;

-- Each track's place in Songs (tracks.ord; NULL for a podcast episode), kept beside its counts so
-- that My Top Rated and Never Played read play_state's own small indexes, never the wide track rows:
-- set when the row is made (trigger) and at every renumbering (LibraryWriter.renumber).
ALTER TABLE play_state ADD COLUMN song_ord INTEGER;
UPDATE play_state SET song_ord = (SELECT ord FROM tracks WHERE tracks.id = play_state.track_id);
CREATE TRIGGER play_state_song_ord AFTER INSERT ON play_state
BEGIN
    UPDATE play_state SET song_ord = (SELECT ord FROM tracks WHERE id = NEW.track_id) WHERE track_id = NEW.track_id;
END;

-- The smart playlists page through these: Top 25 Most Played, Recently Played, My Top Rated (songs
-- only), and the Songs positions of the played songs (Never Played is Songs without them).
CREATE INDEX play_state_plays ON play_state(play_count DESC, last_played DESC) WHERE play_count > 0;
CREATE INDEX play_state_recent ON play_state(last_played DESC) WHERE last_played IS NOT NULL;
CREATE INDEX play_state_rating ON play_state(rating DESC, play_count DESC) WHERE rating >= 8 AND song_ord IS NOT NULL;
CREATE INDEX play_state_played_ord ON play_state(song_ord) WHERE play_count > 0 AND song_ord IS NOT NULL;

-- MPD stickers on songs, other than the names the device keeps itself in play_state (rating,
-- playCount, skipCount, lastPlayed, lastSkipped). Rows follow the track id, so they survive rescans
-- and moves as play counts do, and go with the track when its file is deleted.
CREATE TABLE stickers (
    track_id  INTEGER NOT NULL REFERENCES tracks(id) ON DELETE CASCADE,
    name      TEXT NOT NULL,
    value     TEXT NOT NULL,
    PRIMARY KEY (track_id, name)
) WITHOUT ROWID;
CREATE INDEX stickers_name ON stickers(name, value);

-- How often play counts changed (bumped by triggers): caches of lists built from them (Never Played
-- pages by the Songs positions of the played tracks) know when to read again.
CREATE TABLE listening_version (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    value  INTEGER NOT NULL
);
INSERT INTO listening_version (id, value) VALUES (1, 0);
CREATE TRIGGER play_state_counted_insert AFTER INSERT ON play_state WHEN NEW.play_count > 0
BEGIN UPDATE listening_version SET value = value + 1; END;
CREATE TRIGGER play_state_counted_update AFTER UPDATE OF play_count ON play_state
WHEN (OLD.play_count > 0) != (NEW.play_count > 0)
BEGIN UPDATE listening_version SET value = value + 1; END;
CREATE TRIGGER play_state_counted_delete AFTER DELETE ON play_state WHEN OLD.play_count > 0
BEGIN UPDATE listening_version SET value = value + 1; END;
