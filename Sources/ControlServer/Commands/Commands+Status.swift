import ClickWheelCore
import Foundation
import Library
import MPDProtocol

extension ControlCommands {
    /// status, currentsong, stats, playlistinfo.
    static var statusCommands: [MPDCommand<MPDContext>] {
        [
            MPDCommand("status", .none, permission: .read) { (ctx: inout MPDContext, _, w: inout MPDResponseWriter) throws(MPDError) in
                let p = ctx.player()
                w.field("volume", p.volume)
                w.field("repeat", p.repeatMode == .off ? 0 : 1)
                w.field("random", p.shuffle ? 1 : 0)
                w.field("single", p.repeatMode == .one ? 1 : 0)
                w.field("consume", 0)
                w.field("partition", "default")
                w.field("playlist", p.queueVersion)
                w.field("playlistlength", p.queue.count)
                w.field("mixrampdb", 0)
                w.field("state", p.status == .playing ? "play" : p.status == .paused ? "pause" : "stop")
                guard p.status != .stopped, let current = p.current, p.queue.indices.contains(current) else { return }
                w.field("song", current)
                let song = try libraryCall { try ctx.catalog.songs(ids: [p.queue[current]]).first }
                let elapsed = Double(p.elapsedMS) / 1000
                if let song {
                    w.field("time", "\(Int(elapsed.rounded())):\((song.durationMS + 500) / 1000)")
                    w.field("elapsed", String(format: "%.3f", elapsed))
                    w.field("bitrate", song.bitrate)
                    w.field("duration", String(format: "%.3f", Double(song.durationMS) / 1000))
                    w.field("audio", "\(song.sampleRate):16:\(song.channels)")
                }
                if current + 1 < p.queue.count { w.field("nextsong", current + 1) }
            },
            MPDCommand("currentsong", .none, permission: .read) { (ctx: inout MPDContext, _, w: inout MPDResponseWriter) throws(MPDError) in
                let p = ctx.player()
                guard let current = p.current, p.queue.indices.contains(current) else { return }
                guard let song = try libraryCall({ try ctx.catalog.songs(ids: [p.queue[current]]).first }) else { return }
                SongWriter.write(song, tags: ctx.client.tagTypes, into: &w)
                w.field("Pos", current)
            },
            MPDCommand("playlistinfo", .between(0, 1), permission: .read) { (ctx: inout MPDContext, req, w: inout MPDResponseWriter) throws(MPDError) in
                let p = ctx.player()
                var range = 0..<p.queue.count
                if let arg = req.arguments.first {
                    let r = try arg.range()
                    guard let clamped = r.clamped(toCount: p.queue.count), r.start < max(1, p.queue.count) || r.end != nil
                    else { throw .argument("Bad song index") }
                    range = clamped
                }
                let songs = try libraryCall { try ctx.catalog.songs(ids: Array(p.queue[range])) }
                for (offset, song) in zip(range, songs) {
                    SongWriter.write(song, tags: ctx.client.tagTypes, into: &w)
                    w.field("Pos", offset)
                }
            },
            MPDCommand("stats", .none, permission: .read) { (ctx: inout MPDContext, _, w: inout MPDResponseWriter) throws(MPDError) in
                let s = try libraryCall { try ctx.catalog.statistics() }
                w.field("uptime", Int(Date().timeIntervalSince(ctx.started)))
                w.field("artists", s.artists)
                w.field("albums", s.albums)
                w.field("songs", s.songs)
                w.field("db_playtime", s.playtimeSeconds)
                w.field("db_update", s.updated)
            },
        ]
    }
}
