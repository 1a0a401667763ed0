-- ClickWheel library schema 9: podcast subscriptions. The feeds the service fetches by itself, the
-- episodes each feed lists, and what was downloaded of them into the music folder's Podcasts/<Show>/.
-- Append-only, like 0001–0008. A downloaded episode is also an ordinary track (tracks,
-- podcast_episodes) once the indexer has seen its file; `path` joins the two.

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
CREATE INDEX subscription_episodes_newest ON subscription_episodes(subscription_id, published_at DESC, id DESC);
CREATE INDEX subscription_episodes_path ON subscription_episodes(path) WHERE path IS NOT NULL;
