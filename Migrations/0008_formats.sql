-- ClickWheel library schema 8: every format a real library holds (FLAC, Ogg, MP4, WAV, AIFF).
-- Append-only, like 0001–0007.

-- The sample format of the track's audio as MPD writes it between rate and channels in `Format:` and
-- `audio:`: the bits of a lossless or PCM stream ("16", "24", "32", "8"), "f" for floating point (PCM
-- floats, and the lossy codecs, which decode to floats). NULL: 16 (MP3, which ClickWheel decodes to
-- 16 bits, and every row an older build wrote).
ALTER TABLE tracks ADD COLUMN sample_format TEXT;
