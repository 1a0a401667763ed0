import ControlServer
import Devices
import Foundation
import Logging
import ServiceLifecycle

/// The running `clickwheel run` (engine loop, control server, folder watcher, inputs; started by
/// `RunCommand.start`) as one `Service` of the command's `ServiceGroup`.
///
/// `run()` waits, without holding a thread, for the group's graceful shutdown (SIGTERM, SIGINT) or a
/// quit of the service's own (q on the keyboard; on the terminal display, SIGHUP). It then stops
/// everything in the order the service always has — watcher, inputs, socket, then the engine loop's
/// last checkpoint, Goodbye, display closed and audio stopped — on a thread of its own, since every
/// one of those steps blocks. The group is configured so that this service returning shuts the group
/// down gracefully, so a quit of its own ends the group as a signal does.
final class ClickWheelService: Service {
    let logger: Logger
    private let loop: ServiceLoop
    private let server: ControlServer
    private let watcher: FolderWatcher?
    private let keyboard: KeyboardInput?
    private let evdev: EvdevInput?
    /// Goodbye on the display at the end (an LCD keeps it; a terminal being handed back does not want it).
    private let goodbye: Bool
    /// Finished by `quit()`; `run()` waits for that or the group's graceful shutdown.
    private let quits: Quit
    /// SIGHUP's source, kept alive for as long as the service lives and never touched again
    /// (a dispatch source is thread-safe; the protocol is just not marked `Sendable`).
    nonisolated(unsafe) private let hangup: (any DispatchSourceSignal)?

    /// A request to stop, from any thread: q on the keyboard, a hangup of the terminal.
    struct Quit: Sendable {
        fileprivate let requests: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() { (requests, continuation) = AsyncStream.makeStream(of: Void.self) }

        func callAsFunction() { continuation.finish() }
    }

    init(
        loop: ServiceLoop, server: ControlServer, watcher: FolderWatcher?, keyboard: KeyboardInput?, evdev: EvdevInput?,
        goodbye: Bool, quit: Quit, hangup: (any DispatchSourceSignal)?, logger: Logger
    ) {
        self.loop = loop
        self.server = server
        self.watcher = watcher
        self.keyboard = keyboard
        self.evdev = evdev
        self.goodbye = goodbye
        self.quits = quit
        self.hangup = hangup
        self.logger = logger
    }

    func run() async {
        let quit = quits
        await withGracefulShutdownHandler {
            for await _ in quit.requests {}  // ends at quit(), at graceful shutdown, or if the group is cancelled
        } onGracefulShutdown: {
            quit()
        }
        await onOwnThread("clickwheel.stop") { [self] in stop() }
    }

    /// The ordered shutdown: nothing new comes in, then the loop's last checkpoint, Goodbye, display, audio.
    private func stop() {
        watcher?.stop()
        keyboard?.stop()
        evdev?.stop()
        server.stop()
        loop.shutdown(goodbye: goodbye)
        logger.info("stopped")
    }
}

/// Runs `body` on a thread of its own (blocking work stays off Swift's cooperative pool) and awaits its result.
func onOwnThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.name = name
        thread.start()
    }
}
