-- ClickWheel library schema 5: listens waiting for the scrobble log (`scrobble_log`). Append-only.
-- (Named 0005: 0004 is taken by another change on main; the maintainer renumbers at merge if needed.)

-- Every listen (a play past the play-count mark: L; a skip: S) is written here first, in the same
-- moment it is counted, then appended to the log file and deleted. Rows wait here while the clock is
-- not known to be right (a Pi without RTC before NTP), across restarts. The tags are copied, not
-- referenced: the track may be deleted or retagged before the line is written.
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
