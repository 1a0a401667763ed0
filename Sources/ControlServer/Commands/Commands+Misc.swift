import AudioFormats
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

    /// `outputs`: the configured outputs, their ids their places in the list.
    static func outputs(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        for (id, o) in ctx.outputSwitch.outputs().enumerated() {
            w.field("outputid", id)
            w.field("outputname", o.name)
            w.field("plugin", o.plugin)
            w.field("outputenabled", o.enabled ? 1 : 0)
        }
    }

    /// `enableoutput ID`, `disableoutput ID`, `toggleoutput ID`: `No such audio output` (50) for an id not
    /// in the list, `Integer expected` / `Number too large` (2) for one that is not a number.
    static func enableoutput(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        try switchOutput(ctx, req, true)
    }

    static func disableoutput(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        try switchOutput(ctx, req, false)
    }

    static func toggleoutput(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        try switchOutput(ctx, req, nil)
    }

    private static func switchOutput(_ ctx: MPDContext, _ req: MPDRequest, _ on: Bool?) throws(MPDError) {
        let id = try req.arguments[0].unsigned()
        guard id <= UInt64(Int.max), ctx.outputSwitch.set(Int(id), enabled: on) else {
            throw .noExist("No such audio output")
        }
    }

    /// `outputset ID NAME VALUE`: no output here has runtime attributes, so any name is
    /// `Unsupported attribute` (2), after `No such audio output` (50) for an unknown id, as MPD checks.
    static func outputset(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let id = try req.arguments[0].unsigned()
        guard id < UInt64(ctx.outputSwitch.outputs().count) else { throw .noExist("No such audio output") }
        throw .argument("Unsupported attribute")
    }

    /// `decoders`: each decoder plugin with its suffixes and MIME types (`FormatCatalog`), as MPD lists them.
    static func decoders(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        for plugin in FormatCatalog.plugins {
            w.field("plugin", plugin.name)
            for suffix in plugin.suffixes { w.field("suffix", suffix) }
            for mime in plugin.mimeTypes { w.field("mime_type", mime) }
        }
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
