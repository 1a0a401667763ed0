public import Logging
import Synchronization

/// A log handler that keeps every message, for tests that count log lines.
public final class LogCapture: Sendable {
    private let messages = Mutex<[String]>([])

    public init() {}

    /// A logger writing here, at every level.
    public var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    /// The messages so far, oldest first.
    public var lines: [String] { messages.withLock { $0 } }

    fileprivate func append(_ line: String) {
        messages.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        func log(event: LogEvent) {
            capture.append("\(event.level): \(event.message)")
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
    }
}
