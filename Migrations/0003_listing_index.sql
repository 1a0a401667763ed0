-- ClickWheel library schema 3: the control socket's folder times. Append-only, like 0001 and 0002.

-- listall and listallinfo first read every song's path and modification time in path order (each
-- folder's newest time goes before its contents); with both in one index that pass reads only the
-- index, never the wide track rows (about 2.5 ms of a 10,000-song listallinfo).
CREATE INDEX tracks_path_mtime ON tracks(path, mtime_ns);
