import Dispatch
import Logging
import MPDProtocol
import NIOCore

/// One client: bytes in, the session state machine decides, commands run on its command queue,
/// bytes out. Closes clients that say nothing for the connection timeout (unless idling) and clients
/// that stop reading while owed more than the output limit.
///
/// Thread rules: NIO calls it on its event loop; `notify` and `closeFromServer` hop there.
/// `@unchecked Sendable`: every mutable field is touched on `eventLoop` only (asserted where NIO does not
/// already guarantee it); other threads reach the handler only through `eventLoop.execute`.
final class MPDConnectionHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Held strongly: the event loop is the service's and outlives the server, so a closing connection's
    /// last callbacks may run after the server's owner let it go. The cycle through the server's
    /// `connections` ends when the channel goes inactive (`removed`), which `stop` brings about.
    private let server: ControlServer
    /// The server's command backend, kept at hand for the `status` poll.
    private let backend: ControlCommands
    /// The last `status` answer of an unchanged player, ready to write again as it is (the server's).
    private let statusCache: StatusCache
    /// The stamp a bare `status` poll's answer is to be kept for (read before it was made); nil otherwise.
    private var statusToKeep: StatusStamp?
    /// The channel's event loop, known from the start so that other threads can hop there without
    /// reading `context`, which the loop sets and clears.
    private let eventLoop: any EventLoop
    private var session = MPDSessionStateMachine()
    private var client: MPDClientState
    private var context: ChannelHandlerContext?
    private var busy = false
    private var timeout: Scheduled<Void>?
    /// When the client last sent something (the timeout counts from here; one timer, not one per read).
    private var lastInput = NIODeadline.now()
    /// What one `drive` pass sends, written to the channel once at its end. Kept between passes: the
    /// channel lets go of it once the bytes are on the socket, so the next answer reuses its storage
    /// (no allocation per answer; a write still pending makes `clear` take fresh storage).
    private var output = ByteBufferAllocator().buffer(capacity: 0)
    /// Where this client's batches run, one at a time. A queue of its own, serial, so it targets the
    /// overcommitting global queue: a batch that blocks (a listing waiting for this client to read, a
    /// command waiting for the engine) takes its own thread, and never holds up another client's
    /// batches (a shared concurrent queue ran only as many at once as the machine has cores).
    private let commands = DispatchQueue(label: "clickwheel.mpd.client")

    init(server: ControlServer, eventLoop: any EventLoop) {
        self.server = server
        backend = server.backend
        statusCache = server.statusCache
        client = backend.newClient()
        self.eventLoop = eventLoop
    }

    func channelActive(context: ChannelHandlerContext) {
        self.context = context
        if case .unixDomainSocket = context.channel.localAddress {} else { client.isLocal = false }
        armTimeout()
        drive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timeout?.cancel()
        self.context = nil
        server.removed(self, client: client.id)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        lastInput = .now()
        // A client polling `status` of an unchanged player, the commonest request by far, gets the kept
        // answer's bytes straight away: the same bytes the session would send, without framing the line or
        // making a batch (the session is ready and empty, and a `.ready` answer leaves it so). While the
        // stamp read first stays the same, the kept buffer is written again: no snapshot, no lock, no copy
        // (also on a client's new connection: `mpc` connects for each command). Otherwise the poll takes the
        // one way every request takes, and its answer is kept for the stamp read here, before it was made.
        if !busy, session.isReadyAndEmpty, Self.isStatusPoll(buffer), let stamp = statusCache.stamp(for: client) {
            if let kept = statusCache.answer(for: stamp, on: eventLoop) {
                context.writeAndFlush(wrapOutboundOut(kept), promise: nil)
                return
            }
            statusToKeep = stamp
        }
        buffer.withUnsafeReadableBytes { session.receive($0) }
        drive()
    }

    private static let statusPoll = Array("status\n".utf8)

    private static func isStatusPoll(_ buffer: ByteBuffer) -> Bool {
        buffer.readableBytes == statusPoll.count && buffer.withUnsafeReadableBytes { $0.elementsEqual(statusPoll) }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable {
            server.logger.warning("control socket: a client stopped reading with more than \(server.limits.maxOutputBytes) bytes owed; closed")
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        server.logger.notice("control socket: client error: \(error)")
        context.close(promise: nil)
    }

    /// Engine changes: pending for this client, answered at once if it idles. With `clients`, only
    /// when this connection's client is one of them (a message for its subscribers).
    func notify(_ subsystems: MPDIdleSubsystems, onlyFor clients: Set<UInt64>? = nil) {
        eventLoop.execute { [self] in
            guard context != nil else { return }
            if let clients, !clients.contains(client.id) { return }
            session.notify(subsystems)
            drive()
        }
    }

    func closeFromServer() {
        eventLoop.execute { [self] in self.context?.close(promise: nil) }
    }

    /// An `idle` that waits for `screen`: the engine is told to render frames (without a display it does
    /// not until someone watches).
    private func watchScreenIfAsked(_ result: MPDBatchResult) {
        if case .idle(let subsystems) = result.continuation, subsystems.contains(.screen) { backend.player.watchScreen() }
    }

    /// Carries out the session's actions until it waits.
    private func drive() {
        guard let context, !busy else { return }
        output.clear()
        loop: while true {
            switch session.nextAction() {
            case .send(let bytes):
                output.writeBytes(bytes)
            case .execute(let batch):
                // status, currentsong, ping: answered here from the published state, no hop.
                if let result = server.backend.executeWithoutBlocking(batch, client: &client) {
                    if let stamp = statusToKeep, result.continuation == .ready, result.output.suffix(3).elementsEqual(MPDResponse.ok) {
                        var bytes = context.channel.allocator.buffer(capacity: result.output.count)
                        bytes.writeBytes(result.output)
                        statusCache.keep(bytes, for: stamp, on: eventLoop)
                    }
                    statusToKeep = nil
                    watchScreenIfAsked(result)
                    session.batchFinished(result)
                    continue loop
                }
                statusToKeep = nil
                busy = true
                let input = client
                let backend = server.backend
                let loop = context.eventLoop
                let stream = streamedOutput(on: loop)
                let chunk = StreamedOutput.chunkSize(window: server.streamWindow)
                commands.async { [self] in
                    var state = input
                    let writer = MPDResponseWriter(flushingAt: chunk, to: { stream.send($0) }, stillWanted: { stream.isWanted })
                    let result = backend.execute(batch, client: &state, writer: writer)
                    let output = state
                    loop.execute { [self] in
                        busy = false
                        client = output
                        watchScreenIfAsked(result)
                        session.batchFinished(result)
                        drive()
                    }
                }
                break loop
            case .close:
                context.writeAndFlush(wrapOutboundOut(output), promise: nil)
                context.close(promise: nil)
                return
            case .wait:
                break loop
            }
        }
        if output.readableBytes > 0 { context.writeAndFlush(wrapOutboundOut(output), promise: nil) }
    }

    /// Where a batch's streamed chunks go: written and flushed here, in order before its result.
    private func streamedOutput(on loop: any EventLoop) -> StreamedOutput {
        let seconds = server.limits.connectionTimeoutSeconds
        return StreamedOutput(
            window: server.streamWindow, stallTimeout: Double(seconds), loop: loop,
            write: { [self] buffer, promise in
                guard let context else { return promise.fail(ChannelError.ioOnClosedChannel) }
                context.writeAndFlush(wrapOutboundOut(buffer), promise: promise)
            },
            stalled: { [self] in
                server.logger.notice("control socket: a client took none of a long answer for \(seconds) s; closed")
                context?.close(promise: nil)
            })
    }

    /// Starts the connection timeout: it fires `connectionTimeoutSeconds` after the last input, and a
    /// client idling in `idle` (or waiting for a batch) is exempt. Input only moves `lastInput`; the
    /// timer, when it fires early, waits for the rest.
    private func armTimeout(at deadline: NIODeadline? = nil) {
        timeout?.cancel()
        guard let context else { return }
        let seconds = server.limits.connectionTimeoutSeconds
        timeout = context.eventLoop.scheduleTask(deadline: deadline ?? lastInput + .seconds(seconds)) { [self] in
            let due = lastInput + .seconds(seconds)
            if session.isIdle || busy {
                lastInput = .now()
                armTimeout()
            } else if due > .now() {
                armTimeout(at: due)
            } else {
                server.logger.notice("control socket: a client said nothing for \(seconds) s; closed")
                self.context?.close(promise: nil)
            }
        }
    }
}

/// The last `status` answer of an unchanged player, as the buffer to write, and the stamp it holds for
/// (`ControlCommands.statusStamp`); one per server, shared by its connections. The one cache of `status`:
/// the answer itself is made by the command table, as for any request.
///
/// `@unchecked Sendable`: touched on the server's one event loop only (asserted in
/// debug builds), so its connections share it without a lock.
final class StatusCache: @unchecked Sendable {
    /// A struct, not a tuple: a tuple's copy and metadata go through the runtime's generic paths.
    private struct Kept {
        let stamp: StatusStamp
        let answer: ByteBuffer
    }

    private let backend: ControlCommands
    private var kept: Kept?

    init(backend: ControlCommands) { self.backend = backend }

    /// The stamp `client`'s poll is answered for: nil when no answer can be kept (the player is playing and
    /// the time runs, or the client may not read, whose answer is an error).
    func stamp(for client: MPDClientState) -> StatusStamp? {
        guard client.permission.contains(.read) else { return nil }
        return backend.statusStamp()
    }

    func answer(for stamp: StatusStamp, on loop: any EventLoop) -> ByteBuffer? {
        loop.assertInEventLoop()
        guard let kept, kept.stamp == stamp else { return nil }
        return kept.answer
    }

    func keep(_ answer: ByteBuffer, for stamp: StatusStamp, on loop: any EventLoop) {
        loop.assertInEventLoop()
        kept = Kept(stamp: stamp, answer: answer)
    }
}
