import Foundation

/// Crossfade (MPD's `crossfade SECONDS`): the last seconds of a track overlap the first seconds of the next.
///
/// When it happens, as in MPD 0.23 (`player/CrossFade.cxx`): only at a track's natural end into the
/// queued next track (a skip, `play N`, a seek or a stop cuts as before), only when both tracks are
/// known to last at least 20 s and longer than the crossfade, and only when both decode to the stream's
/// format (sample rate and channels; the codec does not matter: an MP3 crossfades into a FLAC). Two
/// tracks of different rates or channel counts join as they do without crossfade (the stream drains and
/// a new one opens in the next track's format), as MPD does: the outputs take one stream format at a
/// time, and resampling the next track for the rest of its length would change its sound. Spoken word
/// (podcasts, audiobooks) is never crossfaded: it has its own speed stage and an episode's start is
/// not to be buried under the end of the one before. MixRamp is not done (it needs `MIXRAMP_START`/`_END`
/// tags, which the index does not keep); without them MPD falls back to this plain crossfade too.
///
/// How: once the current track has `seconds` (or, after a seek or resume into that stretch, whatever is
/// left) still to be written, the queued decoder becomes current and the old one goes on as the outgoing
/// track: each chunk of the new track is mixed with as many frames of the old one, equal-power (cos/sin
/// over the overlap): two unrelated songs are uncorrelated, so their powers add and the loudness stays
/// level through the overlap, where a linear fade dips by 3 dB in the middle. When the old track's last
/// frame is mixed the overlap is over. A track shorter than twice the crossfade therefore starts fading
/// out as soon as its own fade-in is over: its fade-out is shorter.
///
/// The timeline marks the new track as starting where the overlap starts, so it is reported started
/// (and the old one finished) when the overlap is heard, and positions count in its own time. Everything
/// that starts the stream again goes through `startPending`: a resume after a faded pause inside the
/// overlap picks the overlap up where it was (the old track sought to the matching place); a seek, a
/// skip or a reconnect ends it, and the track the start point names goes on alone.
///
/// Thread rules: audio thread only (called from `PlayerLoop`).
extension PlayerLoop {
    /// An overlap in progress: the old track mixed in under the start of the current one.
    struct Overlap {
        /// The old track's decoder, read alongside the current one.
        let outgoing: any TrackDecoder
        /// The old track's sample where the overlap began (the current track's sample 0).
        let outgoingStart: Int64
        /// Frames of the overlap (the old track's frames left when it began).
        let total: Int
        /// Frames mixed so far.
        var done = 0
    }

    /// MPD's `CrossFadeSettings::MIN_TOTAL_TIME`: a track shorter than this is never crossfaded.
    static let crossfadeMinimumSeconds = 20

    /// Sets the crossfade in whole seconds (0: tracks join gaplessly). An overlap being written goes on;
    /// the new length applies from the next track change.
    func setCrossfade(_ seconds: Int) {
        settings.setCrossfade(seconds)
    }

    /// Whether a track of `decoder` may take part in a crossfade of `window` frames into or out of the
    /// stream in `format`.
    private func crossfadable(_ decoder: any TrackDecoder, window: Int64, format: PCMFormat) -> Bool {
        guard decoder.format == format, !decoder.track.spokenWord, let length = decoder.length else { return false }
        return length >= Int64(Self.crossfadeMinimumSeconds * format.sampleRate) && length > window
    }

    /// Before a chunk of `decoder` (the current track) is read: nil when no crossfade is due (read as
    /// much as there is room for), else the frames still to read before the overlap starts. At the
    /// overlap's start it starts it (the queued decoder becomes current, `decoder` the outgoing one) and
    /// returns 0: read the new current track.
    func framesBeforeCrossfade(_ decoder: any TrackDecoder, format: PCMFormat) -> Int? {
        guard settings.crossfadeSeconds > 0, tracks.overlap == nil, speech.stage == nil, speech.rewriteAt == nil, let next = tracks.queued,
            let length = decoder.length, let last = stream.timeline.segments.last, last.track == decoder.track,
            last.speed == 1
        else { return nil }
        let window = Int64(settings.crossfadeSeconds) * Int64(format.sampleRate)
        guard crossfadable(decoder, window: window, format: format), crossfadable(next, window: window, format: format)
        else { return nil }
        let position = last.firstSample + (stream.timeline.written - last.start)
        let remaining = length - position
        guard remaining > 0 else { return nil }
        if remaining > window { return Int(remaining - window) }
        tracks.queued = nil
        tracks.current = next
        tracks.overlap = Overlap(outgoing: decoder, outgoingStart: position, total: Int(remaining))
        stream.timeline.append(next.track)
        return 0
    }

    /// Mixes the overlap into `bytes` (the current track's next frames, in the stream's `format`): reads
    /// as many frames of the old track and sums the two with the overlap's gains. The overlap ends with
    /// the old track.
    func mixOverlap(_ bytes: UnsafeMutableRawBufferPointer, format: PCMFormat) {
        guard var o = tracks.overlap else { return }
        let count = bytes.count
        var got = 0
        var ended = false
        // A run of empty reads (damage being skipped) ends in `.failed`; guarded anyway.
        var emptyReads = 0
        while got < count, !ended, emptyReads < 64 {
            let into = UnsafeMutableRawBufferPointer(rebasing: scratch.overlap[got..<count])
            switch o.outgoing.read(into: into) {
            case .data(let n):
                got += n
                emptyReads = n == 0 ? emptyReads + 1 : 0
            case .end(let n):
                got += n
                ended = true
            case .failed(let reason):
                logger.warning("track \(o.outgoing.track.id) stopped decoding in its crossfade: \(reason)")
                ended = true
            }
        }
        if got < count {
            UnsafeMutableRawBufferPointer(rebasing: scratch.overlap[got..<count]).initializeMemory(as: UInt8.self, repeating: 0)
        }
        let channels = format.channels
        let frames = count / format.frameSize
        let new = bytes.bindMemory(to: Int16.self)
        let old = UnsafeMutableRawBufferPointer(rebasing: scratch.overlap[0..<count]).bindMemory(to: Int16.self)
        for f in 0..<frames {
            let t = min(1, (Double(o.done + f) + 0.5) / Double(o.total))
            let up = sin(t * .pi / 2), down = cos(t * .pi / 2)
            for c in 0..<channels {
                let i = f * channels + c
                new[i] = Int16(clamping: Int((Double(new[i]) * up + Double(old[i]) * down).rounded()))
            }
        }
        o.done += frames
        if ended || o.done >= o.total {
            if o.outgoing.skippedDamage > 0 {
                logger.notice("track \(o.outgoing.track.id): skipped \(o.outgoing.skippedDamage) damaged stretch(es)")
            }
            tracks.overlap = nil
        } else {
            tracks.overlap = o
        }
    }

    /// A start point (`startPending`) and the overlap: a resume after a faded pause inside it goes on
    /// with it (the old track sought to the place that matches the point); anything else ends it.
    func overlapAfterStart(at point: StartPoint) {
        guard let o = tracks.overlap else { return }
        tracks.overlap = nil
        guard point.fadeIn, point.track == tracks.current?.track, point.sample < Int64(o.total) else { return }
        do {
            try o.outgoing.seek(toSample: o.outgoingStart + point.sample)
            tracks.overlap = Overlap(outgoing: o.outgoing, outgoingStart: o.outgoingStart, total: o.total, done: Int(point.sample))
        } catch {
            logger.warning("track \(o.outgoing.track.id): cannot go back into its crossfade (\(error)); the next track goes on alone")
        }
    }
}
