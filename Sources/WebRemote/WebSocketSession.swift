import ClickWheelCore
import NIOCore
import NIOWebSocket

/// One browser's WebSocket after the upgrade: the password (when needed), then input in and frames out.
///
/// A message that is not ours (binary, fragmented, unmasked, not JSON, an unknown type or button, an
/// angle beyond a turn) closes this socket only, with a close code that says why. Input beyond the rate
/// limit is dropped. Buttons still down when the socket goes are released, so no hold outlives its page.
///
/// Thread rules: a NIO channel handler, on the remote's one event loop (`WebHub.loop`).
final class WebSocketSession: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let hub: WebHub
    let channel: any Channel
    private(set) var isAdmitted = false
    var artToken: String?
    private var wheel = WheelAngle()
    private var limiter: RateLimiter
    private var down: Set<Button> = []
    private var droppedInputs = 0
    private var closing = false

    init(hub: WebHub, channel: any Channel) {
        self.hub = hub
        self.channel = channel
        limiter = RateLimiter(rate: hub.options.inputPerSecond, burst: hub.options.inputBurst)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        hub.add(self)
        if hub.options.needsPassword {
            send("{\"t\":\"auth\"}")
            let seconds = hub.options.authTimeoutSeconds
            let me = NIOLoopBound(self, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .seconds(seconds)) {
                if !me.value.isAdmitted { me.value.close(.policyViolation, "no password") }
            }
        } else {
            admit()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        for b in down { hub.input(.button(b, .up)) }
        down = []
        hub.remove(self)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard !closing else { return }
        switch frame.opcode {
        case .text where frame.fin && frame.maskKey != nil:
            var data = frame.unmaskedData
            let bytes = data.readBytes(length: data.readableBytes) ?? []
            guard let message = WebMessages.parse(bytes) else { return close(.unacceptableData, "not a message") }
            handle(message)
        case .connectionClose:
            close(.normalClosure, nil)
        case .ping:
            var payload = frame.unmaskedData
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: payload.readSlice(length: payload.readableBytes) ?? ByteBuffer())
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .pong:
            break
        case .text:
            close(.protocolError, "unmasked or fragmented message")
        default:
            close(.unacceptableData, "binary or fragmented message")
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        hub.logger.info("web: a browser's socket failed: \(error)")
        context.close(promise: nil)
    }

    private func handle(_ message: WebMessages.Incoming) {
        if case .auth(let password) = message {
            guard !isAdmitted else { return }
            guard let expected = hub.options.password, Self.same(password, expected) else {
                hub.logger.warning("web: a browser gave a wrong password; closed")
                send("{\"t\":\"denied\"}")
                return close(.policyViolation, "wrong password")
            }
            return admit()
        }
        guard isAdmitted else { return close(.policyViolation, "password first") }
        guard limiter.allow(at: NIODeadline.now().uptimeNanoseconds) else {
            droppedInputs += 1
            if droppedInputs == 1 { hub.logger.warning("web: a browser sends input too fast; the excess is dropped") }
            return
        }
        switch message {
        case .wheel(let delta):
            guard let steps = wheel.steps(for: delta) else { return close(.unacceptableData, "bad angle") }
            if steps != 0 { hub.input(.wheel(steps)) }
        case .button(let b, let phase):
            // Edges only: a second down (or an up without a down) is ignored, so the engine sees pairs.
            if phase == .down ? down.insert(b).inserted : down.remove(b) != nil { hub.input(.button(b, phase)) }
        case .podcast(let request):
            hub.podcast(request, from: self)
        case .auth:
            break
        }
    }

    private func admit() {
        isAdmitted = true
        hub.admitted(self)
    }

    func send(_ text: String) { send(channel.allocator.buffer(string: text)) }

    func send(_ buffer: ByteBuffer) {
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: buffer), promise: nil)
    }

    /// Closes with a close frame saying why; the channel closes once it is written.
    func close(_ code: WebSocketErrorCode, _ reason: String?) {
        guard !closing else { return }
        closing = true
        if code != .normalClosure, let reason { hub.logger.info("web: closing a browser's socket: \(reason)") }
        var data = channel.allocator.buffer(capacity: 2 + (reason?.utf8.count ?? 0))
        data.write(webSocketErrorCode: code)
        if let reason { data.writeString(reason) }
        let channel = self.channel
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    /// Closes at once (a browser that stopped reading gets no close frame: it would only queue up).
    func drop() {
        closing = true
        channel.close(promise: nil)
    }

    /// Compares in time independent of where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var diff = x.count ^ y.count
        for i in 0..<max(x.count, y.count) { diff |= Int((i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)) }
        return diff == 0
    }
}
