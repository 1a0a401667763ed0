import ClickWheelCore
import Dispatch
import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// The browsers connected to the web remote and what they are shown: the last frame, the backlight and
/// Now Playing, sent to every admitted browser when they change and to a new one when it is admitted.
///
/// The Podcasts panel's list is read on `podcastQueue` (a database read) and kept here like the frame;
/// what a page asks of the podcasts is done there too, and the list read again after it.
///
/// Thread rules: everything here runs on `loop`, the remote's one event loop (which each entry point
/// asserts), except `onLoop` and `relistPodcasts` (any thread; Mutex-guarded). `@unchecked
/// Sendable`: its other mutable fields are touched only on `loop`; other threads reach it through `onLoop`.
final class WebHub: @unchecked Sendable {
    let loop: any EventLoop
    let options: WebRemoteOptions
    let logger: Logger
    let input: @Sendable (WebInput) -> Void
    private var sessions: [ObjectIdentifier: WebSocketSession] = [:]
    private var frame: Frame?
    private var backlight = true
    private var nowPlaying: WebNowPlaying?
    /// When `nowPlaying` came (monotonic nanoseconds): while playing, a browser admitted later gets the
    /// elapsed time run on to its moment.
    private var nowPlayingAt: UInt64 = 0
    private var seq: UInt64 = 0
    /// The charset of the display the frames are made for (`WebTeeDisplay` says it).
    var charset: TextCharset
    /// The art token of each admitted browser (asked for on `/art/ID` when a password is needed).
    private var artTokens: Set<String> = []
    /// The subscriptions as last read (nil until read, or without a podcast service: the page then shows
    /// no Podcasts panel).
    private var podcastList: [WebPodcastFeed]?
    /// After the remote stopped nothing more is handed to `loop` (its owner shuts it down next).
    let stopped = Mutex(false)
    /// The service's podcasts (nil: none, and no Podcasts panel).
    private let podcastActions: (any WebPodcastActions)?
    /// The podcast calls may block on the database: never on the event loop.
    private let podcastQueue = DispatchQueue(label: "clickwheel.web.podcasts")
    /// A read of the list is queued: changes meanwhile are folded into it.
    private let relistQueued = Mutex(false)

    init(
        loop: any EventLoop, options: WebRemoteOptions, logger: Logger, podcasts: (any WebPodcastActions)?,
        input: @escaping @Sendable (WebInput) -> Void
    ) {
        self.loop = loop
        self.options = options
        self.logger = logger
        podcastActions = podcasts
        self.input = input
        charset = options.charset
    }

    var count: Int {
        loop.preconditionInEventLoop()
        return sessions.count
    }

    func add(_ s: WebSocketSession) {
        loop.preconditionInEventLoop()
        sessions[ObjectIdentifier(s)] = s
    }

    func remove(_ s: WebSocketSession) {
        loop.preconditionInEventLoop()
        sessions[ObjectIdentifier(s)] = nil
        if let token = s.artToken { artTokens.remove(token) }
    }

    /// A browser gave the password (or needs none): it gets its token, the frame and Now Playing.
    /// How far the elapsed time runs on past the service's last Now Playing (which comes every second
    /// while playing): where the service's own time stands (no audio output), the page's stops too.
    static let elapsedSlackMS = 1500

    func admitted(_ s: WebSocketSession) {
        loop.preconditionInEventLoop()
        let token = options.needsPassword ? Self.newToken() : nil
        s.artToken = token
        if let token { artTokens.insert(token) }
        s.send("{\"t\":\"hello\",\"token\":\(token.map(WebMessages.quote) ?? "null")}")
        if let frame { s.send(WebMessages.frame(frame, charset: charset, backlight: backlight, seq: seq)) }
        if let podcastList { s.send(WebMessages.podcasts(podcastList)) }
        if var np = nowPlaying {
            if np.state == .play {
                // As the page does: at most `elapsedSlackMS` past the service's last word.
                let ran = Int((NIODeadline.now().uptimeNanoseconds - nowPlayingAt) / 1_000_000)
                np.elapsedMS = min(np.durationMS, np.elapsedMS + min(ran, Self.elapsedSlackMS))
            }
            s.send(WebMessages.nowPlaying(np, artToken: token))
        }
    }

    func artAllowed(token: String?) -> Bool {
        loop.preconditionInEventLoop()
        guard options.needsPassword else { return true }
        return token.map(artTokens.contains) ?? false
    }

    func show(_ new: Frame) {
        loop.preconditionInEventLoop()
        frame = new
        seq += 1
        broadcast(WebMessages.frame(new, charset: charset, backlight: backlight, seq: seq))
    }

    func setBacklight(_ on: Bool) {
        loop.preconditionInEventLoop()
        guard on != backlight else { return }
        backlight = on
        if let frame { show(frame) }
    }

    func setNowPlaying(_ np: WebNowPlaying) {
        loop.preconditionInEventLoop()
        guard np != nowPlaying else { return }
        nowPlaying = np
        nowPlayingAt = NIODeadline.now().uptimeNanoseconds
        for s in sessions.values where s.isAdmitted { s.send(WebMessages.nowPlaying(np, artToken: s.artToken)) }
    }

    /// Sends `text` to every admitted browser; one that owes more than `maxOwedBytes` (it stopped
    /// reading) is dropped instead, so a stuck browser never holds frames back from the others or the engine.
    private func broadcast(_ text: String) {
        var buffer: ByteBuffer?
        for s in sessions.values where s.isAdmitted {
            if buffer == nil { buffer = s.channel.allocator.buffer(string: text) }
            guard s.channel.isWritable else {
                logger.warning("web: a browser stopped reading (\(options.maxOwedBytes >> 10) KiB owed); dropped")
                s.drop()
                continue
            }
            s.send(buffer!)
        }
    }

    /// Runs `body` on `loop`, unless the remote is stopped (the lock is held while the task is handed
    /// over, so `stop` cannot shut the loop in between). Any thread.
    func onLoop(_ body: @escaping @Sendable (WebHub) -> Void) {
        stopped.withLock { stopped in
            if !stopped { loop.execute { body(self) } }
        }
    }

    /// Reads the subscriptions again and shows them to every browser when they changed (any thread; nothing
    /// without podcasts).
    func relistPodcasts() {
        guard let actions = podcastActions else { return }
        guard !relistQueued.withLock({ q in defer { q = true }; return q }) else { return }
        podcastQueue.async { [self] in
            relistQueued.withLock { $0 = false }
            do {
                let feeds = try actions.list()
                onLoop { $0.setPodcasts(feeds) }
            } catch {
                logger.error("web: cannot read the podcast subscriptions: \(error)")
            }
        }
    }

    private func setPodcasts(_ feeds: [WebPodcastFeed]) {
        loop.preconditionInEventLoop()
        guard feeds != podcastList else { return }
        podcastList = feeds
        broadcast(WebMessages.podcasts(feeds))
    }

    /// Does what page `s` asked of the podcasts, answers it (done, or why not) and shows every browser
    /// the list as it is after.
    func podcast(_ request: WebMessages.PodcastRequest, from s: WebSocketSession) {
        loop.preconditionInEventLoop()
        guard let actions = podcastActions else {
            return s.send(WebMessages.podcastDone(request, error: "no podcast service"))
        }
        let session = NIOLoopBound(s, eventLoop: loop)
        podcastQueue.async { [self] in
            let failure: String?
            do {
                switch request {
                case .add(let url): try actions.add(url)
                case .remove(let id): try actions.delete(id)
                case .refresh(let id): try actions.update(id)
                }
                failure = nil
            } catch {
                failure = "\(error)"
            }
            onLoop { _ in session.value.send(WebMessages.podcastDone(request, error: failure)) }
            relistPodcasts()
        }
    }

    func closeAll() {
        loop.preconditionInEventLoop()
        for s in sessions.values { s.drop() }
    }

    private static func newToken() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(g.next() as UInt64, radix: 16) }.joined()
    }
}
