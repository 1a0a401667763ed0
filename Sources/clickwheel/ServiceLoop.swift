import ClickWheelCore
import Dispatch
import Devices
import Foundation
import GRDB
import Library
import Logging

/// The one serial owner of the engine: every event (keys, ticks, playback reports, scan progress) is
/// posted to its queue, handed to `Engine.handle`, and the effects are carried out there.
///
/// Thread rules: `post` from any thread; everything else runs on `queue`.
final class ServiceLoop: @unchecked Sendable {
    let queue = DispatchQueue(label: "clickwheel.engine")
    private var engine: Engine
    private let display: (any TextDisplay)?
    private let settingsStore: SettingsStore
    private let logger: Logger
    private var playback: SilentPlayback!
    private var ticker: (any DispatchSourceTimer)?
    private let rescan: () -> Void

    init(engine: Engine, display: (any TextDisplay)?, settings: SettingsStore, logger: Logger, rescan: @escaping () -> Void) {
        self.engine = engine
        self.display = display
        self.settingsStore = settings
        self.logger = logger
        self.rescan = rescan
        playback = SilentPlayback(library: engine.library, queue: queue) { [unowned self] report in
            self.handle(.playback(report, at: MonotonicClock.now()))
        }
    }

    /// Starts the tick timer (10 per second: marquees, holds, overlays) and draws the first frame.
    func start() {
        queue.async { [self] in
            handle(.tick(MonotonicClock.now()))
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100), leeway: .milliseconds(20))
            t.setEventHandler { [unowned self] in self.handle(.tick(MonotonicClock.now())) }
            t.resume()
            ticker = t
        }
    }

    func post(_ event: Event) {
        queue.async { [self] in handle(event) }
    }

    /// Stops the timer and closes the display (on the loop's queue, waiting for it).
    func shutdown() {
        queue.sync {
            ticker?.cancel()
            ticker = nil
            display?.close()
        }
    }

    private func handle(_ event: Event) {
        for effect in engine.handle(event) {
            switch effect {
            case .render(let frame):
                do { try display?.show(frame) } catch { logger.error("display: \(error)") }
            case .playback(let command):
                playback.perform(command)
            case .persist(let settings):
                do { try settingsStore.save(settings) } catch { logger.error("cannot save settings: \(error)") }
            case .rate(let track, let stars):
                do { try settingsStore.rate(track, stars: stars) } catch { logger.error("cannot store rating: \(error)") }
            case .backlight(let on):
                try? display?.setBacklight(on)
            case .rescanLibrary:
                rescan()
            case .click, .notify:
                break  // no click sound without audio output; no listeners before the control socket
            }
        }
    }
}
