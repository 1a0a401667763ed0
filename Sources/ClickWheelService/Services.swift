import ClickWheelConfig
import ClickWheelCore
import ControlServer
import Devices
import Foundation
import Library
import Logging
import NamedThreads
import NIOPosix
import Playback
import ServiceLifecycle
import Synchronization
import UnixSignals
import WebRemote

// The long-lived parts of `clickwheel run`, each a swift-service-lifecycle `Service`. Each one's
// `run()` starts its part, waits for the group's graceful shutdown (which comes to them in the reverse
// of `ClickWheelService.parts`' order, each waited for), then stops the part on a named thread: every
// start and stop step here blocks (threads joined, sockets and devices closed).

/// The audio player: its reports go to the engine loop (`PlayerReportRelay`) until shutdown, then the
/// audio thread stops.
struct AudioService: Service {
    let player: AudioPlayer
    let relay: PlayerReportRelay

    func run() async {
        try? await gracefulShutdown()
        relay.close()
        await NamedThread.run("cw-stop") { player.shutdown() }
    }
}

/// Hands the audio player's reports (`AudioPlayer(reportsTo:)`, called on the audio thread) to the engine
/// loop's queue, in the order they were made: straight from the audio thread, so a report wakes only the
/// queue's thread. The player is made before the loop, so reports made before `attach` wait here (the
/// newest 4096, as the player's own stream would keep), then go first. After `close` (shutdown) they are
/// dropped.
///
/// Thread rules: any thread. The state is behind a `Mutex`, and the loop is handed the events while it is
/// held (`playerReported` only queues them), so no report overtakes another.
final class PlayerReportRelay: Sendable {
    private let state = Mutex<(loop: EngineLoop?, early: [PlayerEvent], closed: Bool)>((nil, [], false))

    func deliver(_ event: PlayerEvent) {
        state.withLock { s in
            guard !s.closed else { return }
            if let loop = s.loop { return loop.playerReported(event) }
            if s.early.count >= 4096 { s.early.removeFirst() }
            s.early.append(event)
        }
    }

    func attach(_ loop: EngineLoop) {
        state.withLock { s in
            guard !s.closed else { return }
            s.loop = loop
            for event in s.early { loop.playerReported(event) }
            s.early = []
        }
    }

    func close() {
        state.withLock { s in
            s.closed = true
            s.loop = nil
            s.early = []
        }
    }
}

/// The display (owned by the engine loop, which draws on it): closed last but the audio, after the
/// loop drew Goodbye on it.
struct DisplayService: Service {
    let loop: EngineLoop

    func run() async {
        try? await gracefulShutdown()
        await NamedThread.run("cw-stop") { [loop] in loop.closeDisplay() }
    }
}

/// The engine loop: starts ticking, brings back what played before the last stop (or power cut),
/// and at shutdown writes a last checkpoint and shows Goodbye.
struct EngineService: Service {
    let loop: EngineLoop
    let restore: ResumeState?
    /// Goodbye on the display at the end (an LCD keeps it; a terminal being handed back does not want it).
    let goodbye: Bool

    func run() async {
        loop.start()
        // What played before comes back paused (tracks gone are dropped), as an ordinary event.
        if let restore { loop.post(.restore(restore, at: MonotonicClock.now())) }
        try? await gracefulShutdown()
        await NamedThread.run("cw-stop") { [loop, goodbye] in loop.shutdown(goodbye: goodbye) }
    }
}

/// The library: a scan at start, then one after the music folder changes (or every 10 min where it
/// cannot be watched).
struct LibraryService: Service {
    let scanner: BackgroundScanner
    let watcher: FolderWatcher?
    let folder: String
    let logger: Logger
    /// Said once the folder is watched: where the service runs from.
    let running: @Sendable (_ watching: String) -> Void

    func run() async {
        scanner.start()
        let watching = await NamedThread.run("cw-start") { [scanner, watcher, folder, logger] in
            do {
                switch try watcher?.start({ scanner.start() }) {
                case .inotify(let watches)?: return "watched: \(watches) folders"
                case .periodic?: return "checked every 10 min"
                case nil: return "not watched"
                }
            } catch {
                logger.error("library: cannot watch \(folder): \(error)")
                return "not watched"
            }
        }
        running(watching)
        try? await gracefulShutdown()
        if let watcher { await NamedThread.run("cw-stop") { watcher.stop() } }
    }
}

/// The service's one event loop (SwiftNIO, one thread), which the control socket, the web remote and
/// the Snapcast control client share: first to start, so last to stop, once every network part is closed.
struct NetworkService: Service {
    let group: MultiThreadedEventLoopGroup

    func run() async {
        try? await gracefulShutdown()
        try? await group.shutdownGracefully()
    }
}

/// The control socket (bound when the service was made, so that a taken path fails the start).
struct ControlService: Service {
    let server: ControlServer

    func run() async {
        try? await gracefulShutdown()
        await NamedThread.run("cw-stop") { server.stop() }
    }
}

/// The web remote (listening since the service was made, so that a taken port fails the start): Now
/// Playing once at start, then closed at shutdown.
struct WebService: Service {
    let remote: WebRemote?
    let nowPlaying: WebNowPlayingFeed?

    func run() async {
        nowPlaying?.changed(.player)
        try? await gracefulShutdown()
        if let remote { await NamedThread.run("cw-stop") { remote.stop() } }
    }
}

/// The wheel, buttons and keyboard: read until shutdown, or until the user quits (q on the keyboard,
/// a hangup of the terminal), which ends this service and so the group.
struct InputService: Service {
    let keyboard: KeyboardInput?
    let evdev: EvdevInput?
    let loop: EngineLoop
    let quit: Quit
    let logger: Logger

    func run() async {
        await NamedThread.run("cw-start") { [keyboard, evdev, loop, logger] in
            do {
                try keyboard?.start { loop.post(.input($0)) }
            } catch {
                logger.error("input: keyboard: \(error)")
            }
            guard let evdev else { return }
            do {
                try evdev.start { loop.post(.input($0)) }
                let open = evdev.openDevices
                logger.info("input: \(open.isEmpty ? "no evdev device yet (watching /dev/input)" : open.joined(separator: ", "))")
            } catch {
                logger.error("input: \(error)")
            }
        }
        let quit = self.quit
        await withGracefulShutdownHandler {
            for await _ in quit.requests {}  // ends at quit(), at graceful shutdown, or when cancelled
        } onGracefulShutdown: {
            quit()
        }
        await NamedThread.run("cw-stop") { [keyboard, evdev] in
            keyboard?.stop()
            evdev?.stop()
        }
    }
}

/// SIGHUP: reloads the configuration and rescans, or on the terminal display (where a hangup means the
/// terminal went away) quits.
struct ReloadService: Service {
    let onHangup: @Sendable () -> Void

    func run() async {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() { onHangup() }
    }
}

/// A request to stop, from any thread: q on the keyboard, a hangup of the terminal.
public struct Quit: Sendable {
    fileprivate let requests: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    public init() { (requests, continuation) = AsyncStream.makeStream(of: Void.self) }

    public func callAsFunction() { continuation.finish() }
}
