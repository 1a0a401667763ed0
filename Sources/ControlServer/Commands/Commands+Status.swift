import ClickWheelCore
import Foundation
import Library
import MPDProtocol

/// What is playing and how: `status`, `currentsong`, the queue as `playlistinfo` lists it, `stats`.
extension ControlCommands {
    /// `status`: the play state, the modes, and the current and next entries (with the song's times when
    /// one plays or is paused); `error` last while playing with no output that can play.
    static func status(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let p = ctx.player()
        w.field("volume", p.volume)
        w.field("repeat", p.repeatOn ? 1 : 0)
        w.field("random", p.random ? 1 : 0)
        w.field("single", p.single.rawValue)
        w.field("consume", p.consume ? 1 : 0)
        w.field("partition", "default")
        w.field("playlist", p.queue.version)
        w.field("playlistlength", p.queue.count)
        w.field("mixrampdb", Self.mpdFloat(Float(p.mixRampDB)))
        w.field("state", p.status == .playing ? "play" : p.status == .paused ? "pause" : "stop")
        if p.crossfadeSeconds > 0 { w.field("xfade", p.crossfadeSeconds) }
        if p.mixRampDelay > 0 { w.field("mixrampdelay", Self.mpdFloat(p.mixRampDelay)) }
        defer {
            if let job = p.updatingJob { w.field("updating_db", job) }
            if let error = p.error { w.field("error", error) }
        }
        guard let current = p.currentPosition else { return }
        w.field("song", current)
        w.field("songid", p.queue[current].id)
        if p.status != .stopped, let song = try ctx.currentSong(p.queue[current].track) {
            // (The snapshot's time runs on between position reports: never past the song's end.)
            let elapsedMS = song.durationMS > 0 ? min(p.elapsedMS, song.durationMS) : p.elapsedMS
            let elapsed = Double(elapsedMS) / 1000
            w.field("time", "\(Int(elapsed.rounded())):\((song.durationMS + 500) / 1000)")
            w.field("elapsed", SongWriter.seconds(ms: elapsedMS))
            w.field("bitrate", song.bitrate)
            w.field("duration", SongWriter.seconds(ms: song.durationMS))
            // The track's own format, as MPD's `audio:` gives what its decoder makes of it.
            w.field("audio", "\(song.sampleRate):\(song.sampleFormat):\(song.channels)")
        }
        if let next = p.next {
            w.field("nextsong", next)
            w.field("nextsongid", p.queue[next].id)
        }
    }

    /// A number as MPD's `{}` format prints it: the shortest text that reads back as the same value, with
    /// no `.0` on a whole number (`-17`, `1.5`, `0.10000000149011612` for a float's 0.1 held as a double).
    static func mpdFloat<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        if value == value.rounded(), abs(value) < 1e16 {
            let whole = Int64(value)
            return whole == 0 && value.sign == .minus ? "-0" : String(whole)
        }
        return String(describing: value)
    }

    /// `currentsong`: the current entry's song block, from the song kept for it (`MPDContext.currentSong`).
    static func currentsong(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let p = ctx.player()
        guard let current = p.currentPosition else { return }
        try writeEntries([current], of: p.queue, &ctx, &w, current: true)
    }

    /// `playlistinfo [SONGPOS|START:END]`: song blocks for the queue, or for one entry or a range of it.
    static func playlistinfo(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        let p = ctx.player()
        var range = p.queue.indices
        if let arg = req.arguments.first {
            let r = try arg.range()
            guard let clamped = r.clamped(toCount: p.queue.count), r.start < max(1, p.queue.count) || r.end != nil
            else { throw .argument("Bad song index") }
            range = clamped
        }
        try writeEntries(Array(range), of: p.queue, &ctx, &w)
    }

    /// `stats`: the library's counts, the service's uptime and how long it has played (MPD's `playtime`:
    /// whole seconds in the playing state, pauses and stops left out).
    static func stats(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let s = try ctx.libraryStatistics()
        w.field("uptime", Int(Date().timeIntervalSince(ctx.started)))
        w.field("playtime", ctx.player().playedMS / 1000)
        w.field("artists", s.artists)
        w.field("albums", s.albums)
        w.field("songs", s.songs)
        w.field("db_playtime", s.playtimeSeconds)
        w.field("db_update", s.updated)
    }
}
