public import ClickWheelCore
import Devices
import Library
public import MPDProtocol
import Synchronization

/// What the engine loop calls out to, given when the loop is made (so nothing is wired into it late): the
/// library scan, who hears of changes, Speakers' commands, Settings → Shut Down / Restart's commands,
/// Settings → Wheel's link to the evdev input, and the clocks (seams tests set).
public struct EngineWiring: Sendable {
    /// Starts a library scan (`Effect.rescanLibrary`, MPD's `update`).
    public var rescan: @Sendable () -> Void
    /// Fetches every podcast subscription now (`Effect.refreshPodcasts`, Podcasts → Refresh).
    public var refreshPodcasts: @Sendable () -> Void = {}
    /// Who hears about changes (the control server's idle clients, the web remote's Now Playing).
    public var changes: IdleListeners
    /// Settings → Shut Down / Restart run these (`/bin/sh -c`); a configuration reload changes them.
    public var powerCommands: [PowerAction: String]
    /// Whether the wall clock is synchronised (the alarms ring only then).
    public var clockSynced: @Sendable () -> Bool
    /// The wall clock, Unix milliseconds (tests may move it; the service reads the system's).
    public var unixMS: @Sendable () -> Int64
    /// Main menu → Speakers' commands (the Snapcast rooms, This Pi); nil: no Snapcast control.
    var speakerCommands: (@Sendable (SpeakerCommand) -> Void)?
    /// Settings → Wheel's raw input and saving (nil: nothing to read, and a Save is "not written").
    var wheelCalibration: WheelCalibrationLink?

    public init(
        rescan: @escaping @Sendable () -> Void = {}, changes: IdleListeners = IdleListeners(),
        powerCommands: [PowerAction: String] = [:],
        clockSynced: (@Sendable () -> Bool)? = nil, unixMS: (@Sendable () -> Int64)? = nil
    ) {
        self.rescan = rescan
        self.changes = changes
        self.powerCommands = powerCommands
        // The system's: the kernel's sync status, and the wall clock.
        self.clockSynced = clockSynced ?? { SystemClock.kernelSaysSynchronised() }
        self.unixMS = unixMS ?? { ResumeStore.nowMS() }
    }
}

/// Who hears of the engine's changes (MPD's idle subsystems). Made before the engine loop and handed to
/// it, so that what is made after the loop (the control server, which needs the loop) can still listen:
/// it adds itself once made; changes before that reach nobody, as no client is connected yet.
///
/// Thread rules: `add` and the call from any thread; the listeners run on the caller's thread (the
/// engine loop's queue) and must not block.
public final class IdleListeners: Sendable {
    /// A listener, in a struct (a closure kept bare in a lock grows a thunk chain: see the architecture
    /// check's rule 7).
    private struct Listener {
        let call: @Sendable (MPDIdleSubsystems) -> Void
    }

    private let listeners = Mutex<[Listener]>([])

    public init() {}

    /// Adds `listener` for every change from now on.
    public func add(_ listener: @escaping @Sendable (MPDIdleSubsystems) -> Void) {
        listeners.withLock { $0.append(Listener(call: listener)) }
    }

    /// Tells every listener.
    public func callAsFunction(_ subsystems: MPDIdleSubsystems) {
        for l in listeners.withLock({ $0 }) { l.call(subsystems) }
    }
}
