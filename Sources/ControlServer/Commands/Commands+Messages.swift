import MPDProtocol

/// Client-to-client messages (`MessageBoard`), as MPD 0.23 answers them.
extension ControlCommands {
    /// `subscribe CHANNEL`.
    static func subscribe(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        try ctx.messages.subscribe(ctx.client.id, to: req.arguments[0].string)
    }

    /// `unsubscribe CHANNEL`.
    static func unsubscribe(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        try ctx.messages.unsubscribe(ctx.client.id, from: req.arguments[0].string)
    }

    /// `channels`: every channel with a subscriber.
    static func channels(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        for channel in ctx.messages.channels() { w.field("channel", channel) }
    }

    /// `sendmessage CHANNEL TEXT`.
    static func sendmessage(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        try ctx.messages.send(req.arguments[1].string, on: req.arguments[0].string)
    }

    /// `readmessages`: this client's unread messages.
    static func readmessages(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        for m in ctx.messages.read(ctx.client.id) {
            w.field("channel", m.channel)
            w.field("message", m.text)
        }
    }
}
