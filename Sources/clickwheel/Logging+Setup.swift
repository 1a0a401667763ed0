import Foundation
import Logging

/// swift-log to stderr (journald-friendly: one line per message), level from `CLICKWHEEL_LOG_LEVEL`.
enum Logging {
    private static let bootstrapped: Void = {
        LoggingSystem.bootstrap { label in StreamLogHandler.standardError(label: label) }
    }()

    /// A logger at `level` (default: `CLICKWHEEL_LOG_LEVEL`, else info).
    static func make(_ label: String, level: Logger.Level? = nil) -> Logger {
        _ = bootstrapped
        var logger = Logger(label: label)
        logger.logLevel =
            level ?? ProcessInfo.processInfo.environment["CLICKWHEEL_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        return logger
    }
}
