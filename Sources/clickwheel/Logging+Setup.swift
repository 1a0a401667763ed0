import Foundation
import Logging

/// swift-log to stderr (journald-friendly: one line per message), level from `CLICKWHEEL_LOG_LEVEL`.
enum Logging {
    private static let bootstrapped: Void = {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            let level = ProcessInfo.processInfo.environment["CLICKWHEEL_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
            handler.logLevel = level ?? .info
            return handler
        }
    }()

    static func make(_ label: String) -> Logger {
        _ = bootstrapped
        return Logger(label: label)
    }
}
