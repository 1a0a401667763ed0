import ClickWheelConfig
import Logging
import Synchronization

/// The service's log level, shared by every copy of its logger so that SIGHUP can change it.
///
/// swift-log's loggers are values: each copy holds its own handler. `ReloadableLogHandler` reads the
/// level from this shared box instead (the global-override pattern of swift-log's `LogHandler` docs).
final class SharedLogLevel: Sendable {
    private let level: Mutex<Logger.Level>

    init(_ level: Logger.Level) { self.level = Mutex(level) }

    var value: Logger.Level {
        get { level.withLock { $0 } }
        set { level.withLock { $0 = newValue } }
    }

    /// A logger to stderr (journald-friendly: one line per message) whose level is this box's.
    func logger(_ label: String) -> Logger {
        Logger(label: label) { label in ReloadableLogHandler(inner: StreamLogHandler.standardError(label: label), level: self) }
    }
}

/// Stream logging to stderr at the level of a `SharedLogLevel`.
struct ReloadableLogHandler: LogHandler {
    var inner: StreamLogHandler
    let level: SharedLogLevel

    var logLevel: Logger.Level {
        get { level.value }
        set { level.value = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) { inner.log(event: event) }
}

/// SIGHUP in a running service: reads the configuration again, applies what can change while running
/// (one log line says what, and which changed keys wait for a restart); the caller rescans.
struct ConfigReload: Sendable {
    let started: ServiceConfig
    let logLevel: SharedLogLevel
    let loop: EngineLoop
    let logger: Logger
    /// Reads the configuration as the service did at start (file, environment, flags).
    let read: @Sendable () throws -> ServiceConfig

    func reload() {
        do {
            let new = try read()
            logLevel.value = Logger.Level(rawValue: new.logLevel) ?? .info
            loop.queue.async { [loop] in
                loop.powerCommands = [.shutDown: new.shutdownCommand, .restart: new.restartCommand]
                loop.wheelCalibration?.reload(new)
            }
            let restart = Self.needingRestart(old: started, new: new)
            let waiting = restart.isEmpty ? "" : "; changed but applied only at restart: \(restart.joined(separator: ", "))"
            logger.notice("SIGHUP: configuration reloaded (applied: \(Self.applied.joined(separator: ", "))\(waiting)); rescanning the library")
        } catch {
            let oneLine = "\(error)".split(separator: "\n").joined(separator: " ")
            logger.error("SIGHUP: the configuration was not reloaded, the running one is kept: \(oneLine)")
        }
    }
}

extension ConfigReload {
    /// The keys applied on reload. The wheel's (what `clickwheel calibrate` and Settings → Wheel set)
    /// go to the open input devices at once, as a Save in Settings → Wheel does.
    static let applied = [
        "log_level", "shutdown_command", "restart_command", "steps_per_detent", "degrees_per_step", "invert_wheel",
        "touch_ring", "select_key",
    ]

    /// The configuration's fields (Swift names) that differ between `old` and `new` and that only a
    /// restart applies.
    static func needingRestart(old: ServiceConfig, new: ServiceConfig) -> [String] {
        let appliedFields: Set = [
            "logLevel", "shutdownCommand", "restartCommand", "stepsPerDetent", "degreesPerStep", "invertWheel",
            "touchRing", "selectKey",
        ]
        let before = Mirror(reflecting: old).children.map { ($0.label ?? "", String(describing: $0.value)) }
        let after = Dictionary(
            Mirror(reflecting: new).children.map { ($0.label ?? "", String(describing: $0.value)) },
            uniquingKeysWith: { a, _ in a })
        return before.compactMap { label, value in
            !appliedFields.contains(label) && after[label] != value ? label : nil
        }
    }
}
