import ClickWheelCore
import MPDProtocol

extension ControlCommands {
    /// play, playid, pause, stop, next, previous, seek, seekid, seekcur, setvol, volume, getvol, random,
    /// repeat, single, consume, crossfade, clearerror, replay_gain_status.
    static var playbackCommands: [MPDCommand<MPDContext>] {
        [
            MPDCommand("play", .between(0, 1), permission: .player) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                let position = try req.arguments.first.map { a throws(MPDError) in try a.integer() }
                _ = try ctx.control(.play(position: position))
            },
            MPDCommand("playid", .between(0, 1), permission: .player) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                let id = try req.arguments.first.map { a throws(MPDError) in try a.integer() }
                _ = try ctx.control(.playID(id.flatMap { $0 > 0 ? $0 : nil }))
            },
            MPDCommand("pause", .between(0, 1), permission: .player) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                let pause = try req.arguments.first.map { a throws(MPDError) in try a.boolean() }
                _ = try ctx.control(.pause(pause))
            },
            simple("stop", .stop),
            simple("next", .next),
            simple("previous", .previous),
            MPDCommand("seek", .exactly(2), permission: .player) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                let position = Int(try req.arguments[0].unsigned())
                _ = try ctx.control(.seek(position: position, ms: try req.arguments[1].songTimeMilliseconds()))
            },
            MPDCommand("seekid", .exactly(2), permission: .player) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                let id = Int(try req.arguments[0].unsigned())
                _ = try ctx.control(.seekID(id, ms: try req.arguments[1].songTimeMilliseconds()))
            },
            MPDCommand("seekcur", .exactly(1), permission: .player) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                let arg = req.arguments[0]
                let relative = arg.bytes.first == UInt8(ascii: "+") || arg.bytes.first == UInt8(ascii: "-")
                _ = try ctx.control(.seekCurrent(ms: try arg.signedSongTimeMilliseconds(), relative: relative))
            },
            MPDCommand("setvol", .exactly(1), permission: .player) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                _ = try ctx.control(.setVolume(Int(try req.arguments[0].unsigned(max: 100))))
            },
            MPDCommand("volume", .exactly(1), permission: .player) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                _ = try ctx.control(.changeVolume(by: try req.arguments[0].integer(in: -100...100)))
            },
            MPDCommand("getvol", .none, permission: .read) { (ctx: inout MPDContext, _, w: inout MPDResponseWriter) throws(MPDError) in
                w.field("volume", ctx.player().volume)
            },
            MPDCommand("random", .exactly(1), permission: .player) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                _ = try ctx.control(.random(try req.arguments[0].boolean()))
            },
            MPDCommand("repeat", .exactly(1), permission: .player) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                _ = try ctx.control(.repeatMode(try req.arguments[0].boolean()))
            },
            MPDCommand("single", .exactly(1), permission: .player) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                let arg = req.arguments[0]
                let mode: Player.Single
                if arg.equals("0") { mode = .off } else if arg.equals("1") { mode = .on } else if arg.equals("oneshot") {
                    mode = .oneshot
                } else {
                    throw .argument("Unrecognized single mode, expected 0, 1, or oneshot")
                }
                _ = try ctx.control(.single(mode))
            },
            MPDCommand("consume", .exactly(1), permission: .player) { (ctx: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                _ = try ctx.control(.consume(try req.arguments[0].boolean()))
            },
            // Gapless playback has no crossfade: accepted and reported as 0, as MPD does with 0.
            MPDCommand("crossfade", .exactly(1), permission: .player) { (_: inout MPDContext, req, _: inout MPDResponseWriter) throws(MPDError) in
                _ = try req.arguments[0].unsigned()
            },
            MPDCommand("clearerror", .none, permission: .player) { (_: inout MPDContext, _, _: inout MPDResponseWriter) throws(MPDError) in
            },
            MPDCommand("replay_gain_status", .none, permission: .read) { (_: inout MPDContext, _, w: inout MPDResponseWriter) throws(MPDError) in
                w.field("replay_gain_mode", "off")
            },
        ]
    }

    /// A command without arguments that is one control request.
    static func simple(_ name: String, _ request: ControlRequest) -> MPDCommand<MPDContext> {
        MPDCommand(name, .none, permission: .player) { (ctx: inout MPDContext, _, _: inout MPDResponseWriter) throws(MPDError) in
            _ = try ctx.control(request)
        }
    }
}
