public import ClickWheelCore
public import Logging
public import NIOCore
import NIOPosix
import NamedThreads
public import ServiceLifecycle
import Synchronization

/// The Snapcast control client (Main menu → Speakers, the rooms MPD clients see as outputs): one TCP
/// connection to snapserver's JSON-RPC port (1705), `Server.GetStatus` on connecting, then the server's
/// notifications, so a change made in Snapweb reaches the menu as soon as the server sends it.
///
/// A server that is down, restarts or refuses: one log line when it goes (and one when it is back), a
/// new attempt after a second, then less often (each wait twice the last, at most `maxRetryDelay`: an
/// attempt costs the loop under a millisecond of CPU, but once a second for good, with a control port
/// that is off, that is a sizeable share of what the snapcast output itself costs; measured:
/// contrib/bench/README.md, Measurements behind constants), the menu says "Server offline";
/// nothing waits for it (requests made meanwhile are dropped: the menu shows the server's state again
/// once it is back).
///
/// Thread rules: any thread; the state lives on the client's one event loop (each entry hops there).
/// `@unchecked Sendable`: every mutable field is touched only on `loop`.
public final class SnapcastControl: @unchecked Sendable {
    public let host: String
    public let port: Int
    /// The service's one event loop (borrowed).
    private let loop: any EventLoop
    private let logger: Logger
    /// Called on the loop with the rooms and whether the server answers, after every change.
    private let onChange: @Sendable ([SpeakerRoom], Speakers.Server) -> Void

    /// Set once `stop` began: nothing more is handed to the loop (its thread goes away).
    private let closed = Atomic<Bool>(false)

    private var channel: (any Channel)?
    private var rooms = SnapcastRooms()
    private var server = Speakers.Server.connecting
    private var nextID = 1
    private var statusRequests: Set<Int> = []
    private var stopped = false
    /// The outage was logged (logged once until the server is back).
    private var saidOffline = false
    /// The wait before the next attempt: 1 s after a connection is lost, doubled after each failed one.
    private var retryDelay = TimeAmount.seconds(1)
    static let maxRetryDelay = TimeAmount.seconds(5)

    public init(
        host: String, port: Int, eventLoop: any EventLoop, logger: Logger,
        onChange: @escaping @Sendable ([SpeakerRoom], Speakers.Server) -> Void
    ) {
        self.host = host
        self.port = port
        self.logger = logger
        self.onChange = onChange
        loop = eventLoop
    }

    /// Connects (and keeps reconnecting) until `stop`.
    public func start() {
        loop.execute { self.connect() }
    }

    /// Closes the connection (blocking: call it off the cooperative pool).
    public func stop() {
        closed.store(true, ordering: .sequentiallyConsistent)
        try? loop.submit {
            self.stopped = true
            self.channel?.close(promise: nil)
        }.wait()
    }

    /// Mutes or unmutes a room (its own mute; a group muted in Snapweb is unmuted along with it).
    public func setRoom(_ id: String, on: Bool) {
        onLoop {
            // Offline: dropped (not shown as done); the server's state comes back with it.
            guard self.channel != nil, let entry = self.rooms.entry(id) else { return }
            var volume = entry.client.config.volume
            volume.muted = !on
            self.send(.setVolume(id: self.takeID(), client: id, volume))
            _ = self.rooms.apply(.volume(client: id, muted: volume.muted, percent: volume.percent))
            if on, self.rooms.groupMuted[entry.group] == true {
                self.send(.setGroupMute(id: self.takeID(), group: entry.group, muted: false))
                _ = self.rooms.apply(.groupMute(group: entry.group, muted: false))
            }
            self.changed()
        }
    }

    /// Sets a room's volume, 0…100 (its mute unchanged): the Speakers volume screen's wheel.
    public func setVolume(_ id: String, percent: Int) {
        onLoop {
            guard self.channel != nil, let entry = self.rooms.entry(id) else { return }
            var volume = entry.client.config.volume
            volume.percent = max(0, min(100, percent))
            self.send(.setVolume(id: self.takeID(), client: id, volume))
            // Kept, not published: only the wheel sets volumes here, and its screen is already ahead (a
            // fast turn published step by step would reach the engine behind it and pull the bar back).
            _ = self.rooms.apply(.volume(client: id, muted: volume.muted, percent: volume.percent))
        }
    }

    /// Runs `body` on the loop, unless the client is stopping (a command from an MPD client in the last
    /// moments of a shutdown is dropped).
    private func onLoop(_ body: @escaping @Sendable () -> Void) {
        guard !closed.load(ordering: .sequentiallyConsistent) else { return }
        loop.execute(body)
    }

    private func takeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private func send(_ request: SnapcastRPC.Request) {
        guard let channel else { return }
        channel.writeAndFlush(channel.allocator.buffer(string: request.line), promise: nil)
    }

    private func changed() { onChange(rooms.rooms, server) }

    private func connect() {
        guard !stopped else { return }
        ClientBootstrap(group: loop)
            .connectTimeout(.seconds(1))
            .channelOption(.socketOption(.so_keepalive), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(LineHandler(control: self))
                }
            }
            .connect(host: host, port: port)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    self.connected(channel)
                case .failure(let error):
                    self.lost("cannot reach it (\(error))")
                }
            }
    }

    private func connected(_ channel: any Channel) {
        guard !stopped else {
            channel.close(promise: nil)
            return
        }
        self.channel = channel
        if saidOffline { logger.notice("snapcast control \(host):\(port): back") }
        saidOffline = false
        retryDelay = .seconds(1)
        requestStatus()
    }

    private func requestStatus() {
        let id = takeID()
        statusRequests.insert(id)
        send(.getStatus(id: id))
    }

    /// The connection failed or closed: offline, and another attempt after `retryDelay`.
    fileprivate func lost(_ why: String) {
        channel = nil
        statusRequests = []
        guard !stopped else { return }
        if !saidOffline {
            logger.warning("snapcast control \(host):\(port): \(why); retrying (every second at first, then every 5 s)")
            saidOffline = true
        }
        if server != .offline {
            server = .offline
            changed()
        }
        let delay = retryDelay
        retryDelay = min(Self.maxRetryDelay, retryDelay * 2)
        loop.scheduleTask(in: delay) { self.connect() }
    }

    fileprivate func received(_ line: Substring) {
        let message: SnapcastRPC.Message
        do {
            message = try SnapcastRPC.decode(line, statusRequests: statusRequests)
        } catch {
            logger.warning("snapcast control: \(error): \(line.prefix(200))")
            return
        }
        var changed = false
        switch message {
        case .status:
            statusRequests = []
            if server != .online {
                server = .online
                changed = true
            }
        case .client:
            // A new client's group, or a returning one's new group: the whole status again.
            requestStatus()
        case .error(let id, let text):
            logger.warning("snapcast control: the server refused request \(id.map(String.init) ?? "?"): \(text)")
            // What the menu shows may be ahead of the server: ask for the truth.
            requestStatus()
        default:
            break
        }
        if rooms.apply(message) { changed = true }
        if changed { self.changed() }
    }

    /// Splits the stream into lines and hands them to the control on the loop.
    private final class LineHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private let control: SnapcastControl
        private var pending: [UInt8] = []

        init(control: SnapcastControl) { self.control = control }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            pending += buffer.readBytes(length: buffer.readableBytes) ?? []
            // A status of many clients is a few kB; a line without an end past 4 MB is not Snapcast.
            if pending.count > 4 << 20, !pending.contains(UInt8(ascii: "\n")) {
                control.logger.warning("snapcast control: a line longer than 4 MB; reconnecting")
                pending = []
                context.close(promise: nil)
                return
            }
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                let trimmed = line.trimmingSuffix("\r")
                if !trimmed.isEmpty { control.received(trimmed) }
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            control.lost("the connection closed")
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: Character) -> Substring {
        last == suffix ? dropLast() : self[...]
    }
}

/// Runs the Snapcast control client from start to shutdown.
public struct SnapcastControlService: Service {
    let control: SnapcastControl?

    public init(control: SnapcastControl?) { self.control = control }

    public func run() async {
        control?.start()
        try? await gracefulShutdown()
        if let control { await NamedThread.run("cw-stop") { control.stop() } }
    }
}
