-- ClickWheel library schema 6: audiobooks and chapters. Append-only, like 0001–0005.

-- A part of an audiobook: genre Audiobook/Audiobooks/Hörbuch (ID3 genre 183 reads as Audiobook), or a file
-- under a top `Audiobooks/` folder. Such tracks have no Songs position (`ord`), so Songs and Shuffle
-- Songs leave them out, as the iPod does; their albums are the books of Music → Audiobooks.
ALTER TABLE tracks ADD COLUMN is_audiobook INTEGER NOT NULL DEFAULT 0;
-- The renumbering finds the books through this (a handful of rows in a music library).
CREATE INDEX tracks_audiobook ON tracks(album_id) WHERE is_audiobook = 1;

-- An album's position in Music → Audiobooks (by title), recomputed with the other positions; NULL: not a book.
ALTER TABLE albums ADD COLUMN book_ord INTEGER;
CREATE INDEX albums_book_ord ON albums(book_ord) WHERE book_ord IS NOT NULL;

-- ID3v2 chapters (CHAP frames, in CTOC order, else by start), rewritten whenever the file is reread.
CREATE TABLE chapters (
    track_id  INTEGER NOT NULL REFERENCES tracks(id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL,    -- 0-based, in playing order
    start_ms  INTEGER NOT NULL,
    end_ms    INTEGER NOT NULL,
    title     TEXT NOT NULL,
    PRIMARY KEY (track_id, idx)
) WITHOUT ROWID;

-- Libraries indexed before this schema: the next scan rereads, once, the files that may be books or carry
-- chapters (an audiobook genre, a top Audiobooks/ folder, podcast episodes: a zero mtime reads as
-- changed; ids and play state stay). Other files are not reread: a song with chapters shows them once
-- it changes, or after Settings → Rescan Library of a fresh database.
UPDATE tracks SET mtime_ns = 0
WHERE is_podcast = 1 OR path LIKE 'Audiobooks/%' OR lower(ifnull(genre, '')) LIKE '%audiobook%'
   OR lower(ifnull(genre, '')) LIKE '%hörbuch%' OR lower(ifnull(genre, '')) LIKE '%hörbücher%';
