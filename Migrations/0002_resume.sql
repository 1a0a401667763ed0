-- ClickWheel library schema 2: resume after a power cut. Append-only, like 0001.

-- The play queue and where it stood, one row, rewritten at every checkpoint (every 5 s while playing
-- and after every change). The id lists are BLOBs of 8-byte little-endian track ids: a 100,000-track
-- Shuffle Songs queue is one 800 KB value, rewritten only when the queue changed.
CREATE TABLE resume_state (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    queue        BLOB NOT NULL,     -- track ids in play order (already shuffled when shuffle is on)
    unshuffled   BLOB,              -- the list order while shuffle is on, else NULL
    current      INTEGER,           -- index in queue of the current entry, NULL when none
    position_ms  INTEGER NOT NULL DEFAULT 0,
    status       TEXT NOT NULL,     -- stopped, playing, paused
    saved_at     INTEGER NOT NULL   -- unix milliseconds of the checkpoint
);

-- When a podcast's resume_ms was saved (unix seconds): how long it was away decides the rewind.
ALTER TABLE play_state ADD COLUMN resume_saved_at INTEGER;
