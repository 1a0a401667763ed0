import MPDProtocol

/// The connection's tag types, what the server has (outputs, decoders, URL handlers), and library updates.
extension ControlCommands {
    /// `tagtypes [clear|all|enable TAG…|disable TAG…]`: the tags this connection's song blocks show;
    /// without arguments, lists them.
    static func tagtypes(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        guard let sub = req.arguments.first else {
            for tag in MPDTag.tagtypes where ctx.client.tagTypes.contains(tag.name) { w.field("tagtype", tag.name) }
            return
        }
        let rest = req.arguments.dropFirst()
        func tags() throws(MPDError) -> [String] {
            var out: [String] = []
            for a in rest {
                guard let t = MPDTag(name: a) else { throw .argument("Unknown tag type: \(a.string)") }
                out.append(t.name)
            }
            return out
        }
        if sub.equals("clear") {
            ctx.client.tagTypes = []
        } else if sub.equals("all") {
            ctx.client.tagTypes = Set(MPDTag.tagtypes.map(\.name))
        } else if sub.equals("enable") {
            guard !rest.isEmpty else { throw .argument("Not enough arguments") }
            ctx.client.tagTypes.formUnion(try tags())
        } else if sub.equals("disable") {
            guard !rest.isEmpty else { throw .argument("Not enough arguments") }
            ctx.client.tagTypes.subtract(try tags())
        } else {
            throw .argument("Unknown sub command")
        }
    }

    /// `outputs`: the one output, always enabled.
    static func outputs(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        w.field("outputid", 0)
        w.field("outputname", "ClickWheel")
        w.field("plugin", "pulse")
        w.field("outputenabled", 1)
    }

    /// `decoders`: the one decoder, for MP3.
    static func decoders(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        w.field("plugin", "mpg123")
        w.field("suffix", "mp3")
        w.field("mime_type", "audio/mpeg")
    }

    /// `update [URI]` and `rescan [URI]`: the whole folder is rescanned (incrementally: unchanged files are
    /// not reopened), whatever the path; a path is still checked as MPD checks it.
    static func update(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        try checkUpdatePath(req.arguments.first)
        w.field("updating_db", ctx.update())
    }

    /// `urlhandlers`: none; only the music folder's files play.
    static func urlhandlers(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
    }

    /// `update "/etc"`, `"../x"`, `".."` → `Malformed path` (code 2); a path that does not exist is fine.
    static func checkUpdatePath(_ argument: MPDArgument?) throws(MPDError) {
        guard let argument else { return }
        do {
            _ = try MusicPath.normalize(argument, command: "update")
        } catch {
            throw .argument("Malformed path")
        }
    }
}
