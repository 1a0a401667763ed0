public import ClickWheelCore
import Dispatch
public import Logging
public import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// The web remote: an HTTP server (SwiftNIO's HTTP/1 and WebSocket) serving one page that is the
/// device — the live LCD and a click wheel — and one WebSocket per browser carrying frames out and the
/// wheel and buttons in.
///
/// Frames come from the engine's render effects (`WebTeeDisplay` beside the real display: the stream
/// `idle screen` sees), are encoded once and sent to every browser on the remote's own event loop, so
/// the engine's queue only hands a frame over. Security: loopback by default (and then only loopback
/// `Host` names, against DNS rebinding); any other address needs the password from every browser before
/// it sees anything; a WebSocket's `Origin` must be the page's own; input is rate-limited; a bad message
/// closes that socket only; a browser that stops reading is dropped.
///
/// Thread rules: `start` and `stop` from a thread that may block (not the cooperative pool); `show`,
/// `setBacklight` and `nowPlaying` from any thread, without waiting.
public final class WebRemote: Sendable {
    public let options: WebRemoteOptions
    let logger: Logger
    let hub: WebHub
    let artwork: @Sendable (Int64) -> WebArtwork?
    /// Artwork is read here (a blocking file read): never on the event loop.
    let artQueue = DispatchQueue(label: "clickwheel.web.art")
    private let listening = Mutex<(any Channel)?>(nil)
    private let boundPort = Mutex(0)

    /// The port listened on (after `start`).
    public var port: Int { boundPort.withLock { $0 } }

    /// A remote for `options` on `eventLoop` (the service's one event loop, borrowed: its owner shuts it
    /// down); `input` receives what browsers do (from the event loop: hand it on, do not block),
    /// `artwork` reads a track's picture (on a queue of the remote's own). With `podcasts` (the service's
    /// podcast subscriptions) the page shows its Podcasts panel: the list, read once listening and again
    /// on each `podcastsChanged`, a field to subscribe, refresh and remove; nil: no panel.
    public init(
        options: WebRemoteOptions, eventLoop: any EventLoop, logger: Logger,
        podcasts: (any WebPodcastActions)? = nil,
        input: @escaping @Sendable (WebInput) -> Void,
        artwork: @escaping @Sendable (Int64) -> WebArtwork?
    ) {
        self.options = options
        self.logger = logger
        self.artwork = artwork
        hub = WebHub(loop: eventLoop, options: options, logger: logger, podcasts: podcasts, input: input)
    }

    /// The reason the remote will not listen, or nil.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Listens; returns the port (the one asked for, or the one given when it was 0).
    @discardableResult
    public func start() throws -> Int {
        guard options.isLoopback || options.password != nil else {
            throw StartError(description: "web: \(options.host) is not loopback: set a password (every browser must give it)")
        }
        let hub = self.hub
        let artwork = self.artwork
        let artQueue = self.artQueue
        let options = self.options
        let logger = self.logger
        let channel = try ServerBootstrap(group: hub.loop)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(
                .writeBufferWaterMark, value: .init(low: options.maxOwedBytes / 2, high: options.maxOwedBytes))
            .childChannelInitializer { channel in
                let upgrader = NIOWebSocketServerUpgrader(
                    maxFrameSize: options.maxMessageBytes, automaticErrorHandling: true,
                    shouldUpgrade: { channel, head in
                        channel.eventLoop.submit {
                            guard head.uri == "/ws", Self.hostAllowed(head.headers["host"].first, options: options),
                                Self.originAllowed(head.headers["origin"].first, host: head.headers["host"].first)
                            else {
                                logger.warning("web: a WebSocket from another origin or host refused (\(head.headers["origin"].first ?? "no origin"))")
                                return nil
                            }
                            guard hub.count < options.maxClients else {
                                logger.warning("web: too many browsers (\(options.maxClients)); one refused")
                                return nil
                            }
                            return HTTPHeaders()
                        }
                    },
                    upgradePipelineHandler: { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(WebSocketSession(hub: hub, channel: channel))
                        }
                    })
                return channel.eventLoop.makeCompletedFuture {
                    let http = WebHTTPHandler(hub: hub, artwork: artwork, artQueue: artQueue)
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (
                            upgraders: [upgrader],
                            completionHandler: { context in
                                context.pipeline.removeHandler(name: "web-http", promise: nil)
                            }
                        ))
                    try channel.pipeline.syncOperations.addHandler(http, name: "web-http")
                }
            }
            .bind(host: options.host, port: options.port).wait()
        listening.withLock { $0 = channel }
        let port = channel.localAddress?.port ?? options.port
        boundPort.withLock { $0 = port }
        logger.info("web remote: \(Self.url(host: options.host, port: port))\(options.needsPassword ? " (password)" : "")")
        hub.relistPodcasts()
        return port
    }

    /// The page's address for a person to open.
    public static func url(host: String, port: Int) -> String {
        let shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)/"
    }

    /// Shows `frame` in every browser (any thread; returns at once).
    public func show(_ frame: Frame) {
        onLoop { $0.show(frame) }
    }

    /// The charset of the display the frames are made for (shown by the page).
    public func setCharset(_ charset: TextCharset) {
        onLoop { $0.charset = charset }
    }

    public func setBacklight(_ on: Bool) {
        onLoop { $0.setBacklight(on) }
    }

    public func nowPlaying(_ np: WebNowPlaying) {
        onLoop { $0.setNowPlaying(np) }
    }

    /// The subscriptions or their episodes changed (the `podcast` idle subsystem): the list is read again
    /// and shown to every browser. Any thread; returns at once; changes that come together are read once.
    public func podcastsChanged() {
        hub.relistPodcasts()
    }

    /// Runs `body` on the hub's event loop, unless the remote is stopped (frames still drawn after
    /// `stop`, Goodbye, are not handed to the closed hub).
    private func onLoop(_ body: @escaping @Sendable (WebHub) -> Void) {
        hub.onLoop(body)
    }

    /// Stops listening and closes every browser.
    public func stop() {
        guard !hub.stopped.withLock({ s in defer { s = true }; return s }) else { return }
        if let ch = listening.withLock({ c -> (any Channel)? in defer { c = nil }; return c }) { try? ch.close().wait() }
        let hub = self.hub
        try? hub.loop.submit { hub.closeAll() }.wait()
    }

    /// Which `Host` names are served: on loopback only loopback names (a page of another site that
    /// rebinds its name to 127.0.0.1 is refused); elsewhere any (the password guards).
    static func hostAllowed(_ host: String?, options: WebRemoteOptions) -> Bool {
        guard let host, !host.isEmpty else { return false }
        guard options.isLoopback else { return true }
        let name: Substring
        if host.hasPrefix("[") {
            name = host.dropFirst().prefix { $0 != "]" }
        } else {
            name = host.split(separator: ":", maxSplits: 1).first ?? ""
        }
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }

    /// A WebSocket's `Origin` must be the page's own: the very `Host` it asked, over `http://` (or `https://`
    /// behind a TLS proxy that passes the host on).
    static func originAllowed(_ origin: String?, host: String?) -> Bool {
        guard let origin, let host else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}

/// The display the engine draws on when the web remote is on: each frame and backlight change goes to
/// the real display (if any) and to the browsers.
///
/// Thread rules: `TextDisplay`'s (the engine loop only).
public final class WebTeeDisplay: TextDisplay {
    let primary: (any TextDisplay)?
    let remote: WebRemote
    public let geometry: DisplayGeometry
    public let charset: TextCharset

    public init(primary: (any TextDisplay)?, remote: WebRemote) {
        self.primary = primary
        self.remote = remote
        geometry = primary?.geometry ?? remote.options.geometry
        charset = primary?.charset ?? remote.options.charset
        remote.setCharset(charset)
    }

    public func show(_ frame: Frame) throws {
        remote.show(frame)
        try primary?.show(frame)
    }

    public func setBacklight(_ on: Bool) throws {
        remote.setBacklight(on)
        try primary?.setBacklight(on)
    }

    public func close() { primary?.close() }
}
