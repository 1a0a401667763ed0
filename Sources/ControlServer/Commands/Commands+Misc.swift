import MPDProtocol

extension ControlCommands {
    /// tagtypes, outputs, decoders, urlhandlers.
    static var miscCommands: [MPDCommand<MPDContext>] {
        [
            MPDCommand("tagtypes", .atLeast(0), permission: .read) { (ctx: inout MPDContext, req, w: inout MPDResponseWriter) throws(MPDError) in
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
            },
            MPDCommand("outputs", .none, permission: .read) { (_: inout MPDContext, _, w: inout MPDResponseWriter) throws(MPDError) in
                w.field("outputid", 0)
                w.field("outputname", "ClickWheel")
                w.field("plugin", "pulse")
                w.field("outputenabled", 1)
            },
            MPDCommand("decoders", .none, permission: .read) { (_: inout MPDContext, _, w: inout MPDResponseWriter) throws(MPDError) in
                w.field("plugin", "mpg123")
                w.field("suffix", "mp3")
                w.field("mime_type", "audio/mpeg")
            },
            // The whole folder is rescanned (incrementally: unchanged files are not reopened), whatever
            // the path; a path is still checked as MPD checks it.
            MPDCommand("update", .between(0, 1), permission: .admin) { (ctx: inout MPDContext, req, w: inout MPDResponseWriter) throws(MPDError) in
                try checkUpdatePath(req.arguments.first)
                w.field("updating_db", ctx.update())
            },
            MPDCommand("rescan", .between(0, 1), permission: .admin) { (ctx: inout MPDContext, req, w: inout MPDResponseWriter) throws(MPDError) in
                try checkUpdatePath(req.arguments.first)
                w.field("updating_db", ctx.update())
            },
            MPDCommand("urlhandlers", .none, permission: .read) { (_: inout MPDContext, _, _: inout MPDResponseWriter) throws(MPDError) in
            },
        ]
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
