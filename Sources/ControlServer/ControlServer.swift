import Foundation
public import Logging
public import MPDProtocol
public import NIOCore
import NIOPosix
import Synchronization

/// The MPD protocol on a Unix-domain socket (SwiftNIO): accepts clients up to `maxConnections`,
/// runs each client's requests through its `MPDSessionStateMachine` and the command backend, and
/// delivers idle events.
///
/// Thread rules: `start`, `notify` and `stop` from any thread. Connections live on one NIO event
/// loop; commands run on each connection's own serial dispatch queue (SQLite reads and waits for the
/// engine block, so never on the event loop or Swift's cooperative pool).
public final class ControlServer: Sendable {
    public struct Limits: Sendable {
        public var maxConnections = 100
        public var connectionTimeoutSeconds: Int64 = 60
        /// A client owed more than this is dropped (MPD: 8 MiB).
        public var maxOutputBytes = 8 << 20
        public init() {}
    }

    let backend: ControlCommands
    let limits: Limits
    let logger: Logger
    /// The service's one event loop (one thread): every connection's handler runs on it
    /// (`StatusCache` relies on that). Borrowed: whoever made it shuts it down.
    let eventLoop: any EventLoop
    /// The last `status` answer of an unchanged player, shared by the connections (on the event loop).
    let statusCache: StatusCache
    /// How much of a streamed answer may be on its way to one client before the command producing it
    /// waits (`StreamedOutput`): well below the output limit, so a slow reader is paused, not closed.
    var streamWindow: Int { max(1, min(256 << 10, limits.maxOutputBytes / 2)) }
    let connections = Mutex<[ObjectIdentifier: MPDConnectionHandler]>([:])
    private let channels = Mutex<[any Channel]>([])
    private let socketPath = Mutex<String?>(nil)

    /// Called a second after the last client left (while none is connected), and once a minute when
    /// clients left in that minute though others stay, off the event loop.
    let releaseMemory: @Sendable () -> Void
    /// Clients gone since the last `releaseMemory`.
    private let departedSinceRelease = Mutex(0)
    /// The minute's timer for `releaseMemory` (set by the first start, cancelled by `stop`).
    private let releaseTimer = Mutex<(any DispatchSourceTimer)?>(nil)
    /// How often the memory clients left behind goes back while others stay connected (a minute).
    let releaseInterval: Double

    public init(
        backend: ControlCommands, eventLoop: any EventLoop, limits: Limits = Limits(), logger: Logger,
        releaseMemory: @escaping @Sendable () -> Void = { MallocControl.trim() },
        releaseInterval seconds: Double = 60
    ) {
        self.backend = backend
        statusCache = StatusCache(backend: backend)
        self.eventLoop = eventLoop
        self.limits = limits
        self.logger = logger
        self.releaseMemory = releaseMemory
        self.releaseInterval = seconds
        backend.messages.deliver { [weak self] subsystems, clients in self?.notify(subsystems, only: clients) }
    }

    /// Listens on `path` (its folder is created; a stale socket file is replaced, but not one a live
    /// server answers on), with permissions `mode` and, when given, the group `group`.
    public func start(socketPath path: String, mode: UInt32 = 0o660, group groupName: String? = nil) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if Self.someoneListens(on: path) {
            throw ControlServerError(message: "another server is already listening on \(path)")
        }
        var gid: gid_t?
        if let groupName {
            guard let entry = getgrnam(groupName) else { throw ControlServerError(message: "no group named '\(groupName)'") }
            gid = entry.pointee.gr_gid
        }
        let ch = try bootstrap().bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).wait()
        chmod(path, mode_t(mode))
        if let gid, chown(path, uid_t.max, gid) != 0 {
            logger.warning("control socket: cannot give \(path) to group \(groupName ?? ""): \(String(cString: strerror(errno)))")
        }
        channels.withLock { $0.append(ch) }
        socketPath.withLock { $0 = path }
        logger.info("control socket: listening on \(path)")
        backend.warmLibrary()
    }

    /// Also listens on TCP (`host` should be a loopback address: the protocol has no encryption).
    public func startTCP(host: String, port: Int) throws {
        let ch = try bootstrap().bind(host: host, port: port).wait()
        channels.withLock { $0.append(ch) }
        logger.info("control socket: listening on \(host):\(port)")
    }

    private func bootstrap() -> ServerBootstrap {
        startReleaseTimer()
        return ServerBootstrap(group: eventLoop)
            .serverChannelOption(.backlog, value: 64)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: limits.maxOutputBytes / 2, high: limits.maxOutputBytes))
            .childChannelInitializer { [self] channel in
                let handler = MPDConnectionHandler(server: self, eventLoop: channel.eventLoop)
                let admitted = connections.withLock { c -> Bool in
                    guard c.count < limits.maxConnections else { return false }
                    c[ObjectIdentifier(handler)] = handler
                    return true
                }
                guard admitted else {
                    logger.warning("control socket: too many clients (\(limits.maxConnections)); one refused")
                    return channel.close()
                }
                return channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
            }
    }

    /// Tells every client that these subsystems changed (MPD's idle events).
    public func notify(_ subsystems: MPDIdleSubsystems) {
        if subsystems.contains(.database) { backend.libraryChanged() }
        notify(subsystems, only: nil)
    }

    /// Tells these clients (nil: every client) that these subsystems changed.
    func notify(_ subsystems: MPDIdleSubsystems, only clients: Set<UInt64>?) {
        for handler in connections.withLock({ Array($0.values) }) { handler.notify(subsystems, onlyFor: clients) }
    }

    /// Closes the socket and every client, and removes the socket file.
    public func stop() {
        releaseTimer.withLock { t in
            t?.cancel()
            t = nil
        }
        for ch in channels.withLock({ c -> [any Channel] in defer { c = [] }; return c }) {
            try? ch.close().wait()
        }
        for handler in connections.withLock({ Array($0.values) }) { handler.closeFromServer() }
        if let path = socketPath.withLock({ p -> String? in defer { p = nil }; return p }) { unlink(path) }
    }

    func removed(_ handler: MPDConnectionHandler, client: UInt64) {
        let left = connections.withLock { c in
            c.removeValue(forKey: ObjectIdentifier(handler))
            return c.count
        }
        backend.messages.remove(client)
        departedSinceRelease.withLock { $0 += 1 }
        if left == 0 { lastClientLeft() }
    }

    /// Once a minute, when clients left in that minute, what their answers took goes back to the system
    /// even though others stay connected: clients that come and go but are never all gone (Home
    /// Assistant, a phone app that stays connected) never let the last-client trim run, and glibc
    /// keeps what was freed, so the RSS would grow with every departed client's answers, nearly all of
    /// it memory held free (the soak's figures: contrib/soak/README.md, The long run).
    private func startReleaseTimer() {
        releaseTimer.withLock { timer in
            guard timer == nil else { return }
            let t = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            t.schedule(deadline: .now() + releaseInterval, repeating: releaseInterval, leeway: .milliseconds(100))
            let release = releaseMemory
            t.setEventHandler { [weak self] in
                guard let self, departedSinceRelease.withLock({ d in defer { d = 0 }; return d > 0 }) else { return }
                release()
            }
            t.resume()
            timer = t
        }
    }

    /// The last client left: a second later, if none came back, what the clients' answers took goes back
    /// to the system (`releaseMemory`, by default glibc's `malloc_trim`; off the event loop). glibc keeps
    /// freed memory in its arenas: without a trim it stays held after the clients leave (the figures:
    /// contrib/soak/README.md, Memory under never-reading clients).
    private func lastClientLeft() {
        let release = releaseMemory
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 1) { [weak self] in
            guard let self, connections.withLock({ $0.isEmpty }) else { return }
            release()
        }
    }

    /// Whether a server answers on `path` (then its socket must not be replaced).
    static func someoneListens(on path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return false }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let result = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return result == 0
    }
}

public struct ControlServerError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
