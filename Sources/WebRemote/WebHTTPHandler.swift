import Dispatch
import NIOCore
import NIOHTTP1

/// The HTTP side of the web remote: the built-in assets and `/art/ID`, nothing else. No path from a
/// request reaches the file system: assets come from `WebAssets` (built into the binary), artwork from
/// the `artwork` closure by a numeric track id. `/ws` arrives here only when the upgrade was refused
/// (another origin or host, too many browsers, not an upgrade): 403.
///
/// Thread rules: a NIO channel handler, on the remote's event loop; artwork is read on `artQueue`.
final class WebHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let hub: WebHub
    let artwork: @Sendable (Int64) -> WebArtwork?
    let artQueue: DispatchQueue
    private var head: HTTPRequestHead?

    init(hub: WebHub, artwork: @escaping @Sendable (Int64) -> WebArtwork?, artQueue: DispatchQueue) {
        self.hub = hub
        self.artwork = artwork
        self.artQueue = artQueue
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h): head = h
        case .body: break  // no request of ours has a body; it is read and dropped
        case .end:
            guard let head else { return }
            self.head = nil
            respond(context, head)
        }
    }

    private func respond(_ context: ChannelHandlerContext, _ head: HTTPRequestHead) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let query = head.uri.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        guard WebRemote.hostAllowed(head.headers["host"].first, options: hub.options) else {
            return send(context, head, .forbidden, "text/plain", Array("wrong host\n".utf8))
        }
        guard head.method == .GET || head.method == .HEAD else {
            return send(context, head, .methodNotAllowed, "text/plain", Array("GET only\n".utf8))
        }
        if let asset = WebAssets.files[path == "/" ? "/index.html" : path] {
            return send(context, head, .ok, asset.mime, asset.bytes)
        }
        if path.hasPrefix("/art/"), let id = Int64(path.dropFirst(5)), id > 0 {
            let token = query.split(separator: "&").first { $0.hasPrefix("t=") }.map { String($0.dropFirst(2)) }
            guard hub.artAllowed(token: token) else {
                return send(context, head, .forbidden, "text/plain", Array("password first\n".utf8))
            }
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            let artwork = self.artwork
            artQueue.async {
                let art = artwork(id)
                loop.execute {
                    let (me, context) = bound.value
                    if let art {
                        me.send(context, head, .ok, art.mime, art.bytes)
                    } else {
                        me.send(context, head, .notFound, "text/plain", Array("no artwork\n".utf8))
                    }
                }
            }
            return
        }
        if path == "/ws" { return send(context, head, .forbidden, "text/plain", Array("not allowed\n".utf8)) }
        send(context, head, .notFound, "text/plain", Array("not found\n".utf8))
    }

    private func send(
        _ context: ChannelHandlerContext, _ request: HTTPRequestHead, _ status: HTTPResponseStatus, _ mime: String,
        _ body: [UInt8]
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: mime)
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "X-Frame-Options", value: "DENY")
        headers.add(
            name: "Content-Security-Policy",
            value: "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")
        let keepAlive = request.isKeepAlive
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: request.version, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if request.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive { done.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) } }
    }
}
