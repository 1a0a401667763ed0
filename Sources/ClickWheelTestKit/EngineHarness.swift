public import ClickWheelCore

/// Drives an `Engine` with a script of wheel turns, presses and waits on a fake clock, and keeps
/// what it did: the effects and the frame a person would see.
public struct EngineHarness {
    public var engine: Engine
    /// The fake clock.
    public private(set) var now: Timestamp = .ms(1000)
    /// Every effect so far, in order.
    public private(set) var effects: [Effect] = []
    /// The effects of the last step.
    public private(set) var lastEffects: [Effect] = []
    /// Milliseconds between two wheel steps of `turn` (slow enough that acceleration stays off).
    public var stepMS: Int64 = 300

    public init(engine: Engine) {
        self.engine = engine
        send(.tick(now))
    }

    /// A harness over `library` on a display of `geometry`.
    public init(
        library: any LibraryReading, geometry: DisplayGeometry, charset: TextCharset = .utf8,
        settings: Settings = Settings()
    ) {
        let configuration = EngineConfiguration(geometry: geometry, charset: charset, version: "test")
        self.init(engine: Engine(library: library, configuration: configuration, settings: settings))
    }

    /// The screen as lines of text.
    public var screen: [String] { engine.frame?.lines ?? [] }

    /// The screen as one string, rows joined by newlines.
    public var screenText: String { screen.joined(separator: "\n") }

    /// Moves the fake clock on to `time` (never back) without sending anything: for tests that drive
    /// ticks and clock samples themselves.
    public mutating func setNow(_ time: Timestamp) { now = max(now, time) }

    /// Sends one event and records its effects.
    @discardableResult
    public mutating func send(_ event: Event) -> [Effect] {
        lastEffects = engine.handle(event)
        effects += lastEffects
        return lastEffects
    }

    /// Lets `ms` milliseconds pass, ticking every 100 ms.
    public mutating func wait(ms: Int64) {
        let end = now.adding(ms: ms)
        while now < end {
            now = min(end, now.adding(ms: 100))
            send(.tick(now))
        }
    }

    /// Lets `ms` milliseconds pass as the service does: a tick only at each time `Engine.nextTick` names.
    public mutating func idle(ms: Int64) {
        let end = now.adding(ms: ms)
        while let next = engine.nextTick(), next <= end {
            now = max(now, next)
            send(.tick(now))
        }
        now = end
    }

    /// Turns the wheel `steps` single steps (negative: anticlockwise), `stepMS` apart.
    public mutating func turn(_ steps: Int) {
        for _ in 0..<abs(steps) {
            now = now.adding(ms: stepMS)
            send(.wheel(steps > 0 ? 1 : -1, at: now))
        }
    }

    /// Turns the wheel `steps` steps with `intervalMS` between them (a fast spin when small).
    public mutating func spin(_ steps: Int, intervalMS: Int64) {
        for _ in 0..<abs(steps) {
            now = now.adding(ms: intervalMS)
            send(.wheel(steps > 0 ? 1 : -1, at: now))
        }
    }

    /// Clicks `button` (down, 80 ms, up).
    public mutating func click(_ button: Button) {
        now = now.adding(ms: 50)
        send(.button(button, .down, at: now))
        now = now.adding(ms: 80)
        send(.button(button, .up, at: now))
    }

    /// Holds `button` for `ms` milliseconds, ticking meanwhile, then releases it.
    public mutating func hold(_ button: Button, ms: Int64 = 800) {
        now = now.adding(ms: 50)
        send(.button(button, .down, at: now))
        wait(ms: ms)
        send(.button(button, .up, at: now))
    }

    /// Delivers a playback report now.
    public mutating func report(_ report: PlaybackReport) {
        now = now.adding(ms: 10)
        send(.playback(report, at: now))
    }

    /// The playback commands emitted so far.
    public var playbackCommands: [PlaybackCommand] {
        effects.compactMap { if case .playback(let c) = $0 { c } else { nil } }
    }
}
