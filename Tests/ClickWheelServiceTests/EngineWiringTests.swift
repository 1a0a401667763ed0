import ClickWheelCore
import ClickWheelTestKit
import Devices
import Logging
import MPDProtocol
import Synchronization
import Playback
import Testing

@testable import ClickWheelService

/// The engine loop's wiring, given when it is made: a scan request reaches `rescan`, changes reach every
/// listener that joined, also one that joined after the loop was made (as the control server does).
struct EngineWiringTests {
    final class Box<T: Sendable>: Sendable {
        let value: Mutex<T>
        init(_ v: T) { value = Mutex(v) }
    }

    @Test func anUpdateRescansAndEveryListenerHearsOfIt() throws {
        let scans = Box(0)
        let heard = Box<[MPDIdleSubsystems]>([])
        let changes = IdleListeners()
        let library = Fixtures.sample()
        let engine = Engine(
            library: library, configuration: EngineConfiguration(geometry: DisplayGeometry(columns: 20, rows: 4), charset: .utf8),
            settings: Settings())
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        let loop = EngineLoop(
            engine: engine, display: nil, stores: EngineStores(), playback: SilentPlayback(),
            wiring: EngineWiring(rescan: { scans.value.withLock { $0 += 1 } }, changes: changes), logger: quiet)
        changes.add { s in heard.value.withLock { $0.append(s) } }
        let job = loop.update()
        #expect(job == 1 && scans.value.withLock { $0 } == 1)
        loop.scanFinished(libraryChanged: true)
        loop.send(.tick(MonotonicClock.now()))  // after the queued scan report
        let all = heard.value.withLock { $0 }
        #expect(all.contains { $0.contains(.update) }, "\(all)")
        #expect(all.contains { $0.contains(.database) }, "\(all)")
    }

    /// The player's reports reach the engine loop's queue in the order they were made: those made before the
    /// loop was attached first, then the later ones; none after `close` (shutdown).
    @Test func theReportRelayKeepsTheOrderAndDropsAfterClose() {
        let playback = RecordingPlayback()
        let engine = Engine(
            library: Fixtures.sample(),
            configuration: EngineConfiguration(geometry: DisplayGeometry(columns: 20, rows: 4), charset: .utf8),
            settings: Settings())
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        let loop = EngineLoop(engine: engine, display: nil, stores: EngineStores(), playback: playback, logger: quiet)
        let relay = PlayerReportRelay()
        let event = { (n: Int) in PlayerEvent(report: .position(trackID: 1, seconds: Double(n)), after: 0) }
        relay.deliver(event(1))
        relay.deliver(event(2))
        #expect(playback.seen.withLock { $0 }.isEmpty)
        relay.attach(loop)
        relay.deliver(event(3))
        relay.close()
        relay.deliver(event(4))
        loop.send(.tick(MonotonicClock.now()))  // after the queued reports
        #expect(playback.seen.withLock { $0 } == [event(1), event(2), event(3)])
    }

    /// Records the reports the loop translates (on its queue, in the order they came).
    final class RecordingPlayback: PlaybackPort, Sendable {
        let seen = Mutex<[PlayerEvent]>([])
        func perform(_ command: PlaybackCommand, following: (Int) -> Int?) {}
        func translate(_ event: PlayerEvent) -> PlaybackReport? {
            seen.withLock { $0.append(event) }
            return nil
        }
        func setSoundCheck(_ on: Bool, album: Bool) {}
        func click(volume: Int) {}
    }

    /// A playback port that does nothing (the engine's commands are not what these tests look at).
    final class SilentPlayback: PlaybackPort, Sendable {
        func perform(_ command: PlaybackCommand, following: (Int) -> Int?) {}
        func translate(_ event: PlayerEvent) -> PlaybackReport? { nil }
        func setSoundCheck(_ on: Bool, album: Bool) {}
        func click(volume: Int) {}
    }

    @Test func idleListenersTellEachInTheOrderTheyJoined() {
        let order = Box<[String]>([])
        let changes = IdleListeners()
        changes(.player)  // nobody yet: nothing happens
        changes.add { _ in order.value.withLock { $0.append("server") } }
        changes.add { _ in order.value.withLock { $0.append("web") } }
        changes(.mixer)
        #expect(order.value.withLock { $0 } == ["server", "web"])
    }
}
