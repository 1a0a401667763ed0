-- ClickWheel library schema 7: Music → Compilations, and Artists without the compilations' artists.
-- Append-only, like 0001–0005.

-- Each artist's place in Artists while compilations are kept apart (the iPod's default, Settings →
-- Music Menu → Comps in Artists off): only artists with a song that is not on a compilation, so
-- Various Artists and an album artist of compilations alone are left out; NULL for the others.
-- `ord` keeps every artist (the switch on). Recomputed with `ord` (LibraryWriter.renumber), so a page
-- stays an index range lookup.
ALTER TABLE artists ADD COLUMN solo_ord INTEGER;
CREATE INDEX artists_solo_ord ON artists(solo_ord);

-- Each compilation album's (TCMP=1) place in Music → Compilations, in Albums order; NULL for the others.
ALTER TABLE albums ADD COLUMN compilation_ord INTEGER;
CREATE INDEX albums_compilation_ord ON albums(compilation_ord);

-- A library indexed by an older build gets both now, not at its next scan that changes something.
UPDATE artists SET solo_ord = o.r FROM (
    SELECT id, row_number() OVER (ORDER BY sort_key, name) - 1 AS r FROM artists
    WHERE id IN (SELECT artist_id FROM tracks WHERE is_podcast = 0 AND is_compilation = 0)) AS o
WHERE artists.id = o.id;
UPDATE albums SET compilation_ord = o.r FROM (
    SELECT id, row_number() OVER (ORDER BY sort_key, title, id) - 1 AS r FROM albums
    WHERE is_compilation = 1 AND ord IS NOT NULL) AS o
WHERE albums.id = o.id;
