import ClickWheelCore
import MPDProtocol

/// Playback: what plays, where in the song, the volume and the play modes.
extension ControlCommands {
    /// `play [SONGPOS]`: starts the queue entry at SONGPOS; without one (or with -1), resumes or starts the
    /// current entry.
    static func play(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let position = try req.arguments.first.map { a throws(MPDError) in try a.integer() }
        _ = try ctx.control(.play(position: position))
    }

    /// `playid [SONGID]`: starts the queue entry with SONGID; without one (or with one below 1), the current
    /// entry.
    static func playid(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let id = try req.arguments.first.map { a throws(MPDError) in try a.integer() }
        _ = try ctx.control(.playID(id.flatMap { $0 > 0 ? $0 : nil }))
    }

    /// `pause [0|1]`: pauses or resumes; without an argument, toggles.
    static func pause(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let pause = try req.arguments.first.map { a throws(MPDError) in try a.boolean() }
        _ = try ctx.control(.pause(pause))
    }

    /// `stop`.
    static func stop(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.stop)
    }

    /// `next`.
    static func next(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.next)
    }

    /// `previous`.
    static func previous(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.previous)
    }

    /// `seek SONGPOS TIME`: plays the queue entry at SONGPOS from TIME seconds.
    static func seek(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let position = Int(try req.arguments[0].unsigned())
        _ = try ctx.control(.seek(position: position, ms: try req.arguments[1].songTimeMilliseconds()))
    }

    /// `seekid SONGID TIME`: plays the queue entry with SONGID from TIME seconds.
    static func seekid(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let id = Int(try req.arguments[0].unsigned())
        _ = try ctx.control(.seekID(id, ms: try req.arguments[1].songTimeMilliseconds()))
    }

    /// `seekcur TIME`: seeks in the current song; `+TIME`/`-TIME` from where it is.
    static func seekcur(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let arg = req.arguments[0]
        let relative = arg.bytes.first == UInt8(ascii: "+") || arg.bytes.first == UInt8(ascii: "-")
        _ = try ctx.control(.seekCurrent(ms: try arg.signedSongTimeMilliseconds(), relative: relative))
    }

    /// `setvol VOL`: sets the volume, 0–100.
    static func setvol(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.setVolume(Int(try req.arguments[0].unsigned(max: 100))))
    }

    /// `volume CHANGE`: changes the volume by -100…100.
    static func volume(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.changeVolume(by: try req.arguments[0].integer(in: -100...100)))
    }

    /// `getvol`: `volume: N`.
    static func getvol(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        w.field("volume", ctx.player().volume)
    }

    /// `random 0|1`.
    static func random(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.random(try req.arguments[0].boolean()))
    }

    /// `repeat 0|1`.
    static func `repeat`(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.repeatMode(try req.arguments[0].boolean()))
    }

    /// `single 0|1|oneshot`.
    static func single(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let arg = req.arguments[0]
        let mode: Player.Single
        if arg.equals("0") { mode = .off } else if arg.equals("1") { mode = .on } else if arg.equals("oneshot") {
            mode = .oneshot
        } else {
            throw .argument("Unrecognized single mode, expected 0, 1, or oneshot")
        }
        _ = try ctx.control(.single(mode))
    }

    /// `consume 0|1`.
    static func consume(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.consume(try req.arguments[0].boolean()))
    }

    /// `crossfade SECONDS`: whole seconds, 0 or more (MPD's `Integer expected`/`Number too large`); the
    /// end of each track overlaps the start of the next by that much (0: gapless), kept across restarts.
    static func crossfade(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.crossfade(Int(try req.arguments[0].unsigned())))
    }

    /// `mixrampdb DB`: stored and shown in `status`, as MPD does (any float, nan too; `Float expected`).
    /// It only matters to MixRamp, which needs tags the index does not keep (see `Settings.mixRampDB`).
    static func mixrampdb(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.mixRampDB(Double(Float(try req.arguments[0].float()))))
    }

    /// `mixrampdelay SECONDS`: stored and shown in `status` while above 0, as MPD does (`nan` or 0 and
    /// below switch MixRamp off). MPD parses a float and keeps it as a double: so is it here.
    static func mixrampdelay(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        _ = try ctx.control(.mixRampDelay(Double(Float(try req.arguments[0].float()))))
    }

    /// `clearerror`: accepted and changes nothing: the one `error` `status` reports (no output can play)
    /// is a state, not an event, and goes by itself when an output plays again.
    static func clearerror(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
    }

    /// `replay_gain_status`: Sound Check's mode (off, track, album or auto).
    static func replay_gain_status(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        w.field("replay_gain_mode", ctx.player().replayGainMode)
    }

    /// `replay_gain_mode off|track|album|auto`: Sound Check off, or on with that gain (the device's
    /// Settings → Sound Check shows it on for the three).
    static func replay_gain_mode(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        let mode = req.arguments[0].string
        guard ["off", "track", "album", "auto"].contains(mode) else { throw .argument("Unrecognized replay gain mode") }
        _ = try ctx.control(.replayGainMode(mode))
    }
}
