import CPulse

/// An error reported by libpulse: the operation that failed, libpulse's error code and its text.
///
/// Thread rules: a value type, `Sendable`; made on whichever thread called the failing function.
public struct PulseError: Error, CustomStringConvertible, Sendable {
    /// The libpulse function that failed (`pa_context_connect`, …).
    public var operation: String
    /// A `pa_error_code` value (`PA_ERR_CONNECTIONREFUSED`, …), or 0 when libpulse gave none.
    public var code: Int32
    /// Human-readable reason, from `pa_strerror`.
    public var message: String

    public init(operation: String, code: Int32, message: String) {
        self.operation = operation
        self.code = code
        self.message = message
    }

    public var description: String { "\(operation): \(message)" }

    /// True when the server went away or refused us: reconnecting later may help.
    public var isConnectionLoss: Bool {
        let lost: [pa_error_code] = [
            PA_ERR_CONNECTIONREFUSED, PA_ERR_CONNECTIONTERMINATED, PA_ERR_KILLED, PA_ERR_TIMEOUT,
            PA_ERR_BADSTATE,
        ]
        return lost.contains { Int32($0.rawValue) == code }
    }

    /// Makes an error from a `pa_error_code` (`pa_strerror`).
    static func code(_ code: Int32, _ operation: String) -> PulseError {
        let text = pa_strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return PulseError(operation: operation, code: code, message: text)
    }

    /// Makes an error from the context's last error (`pa_context_errno` + `pa_strerror`).
    static func last(_ context: OpaquePointer?, _ operation: String) -> PulseError {
        code(context.map { pa_context_errno($0) } ?? Int32(PA_ERR_UNKNOWN.rawValue), operation)
    }

    /// Turns a libpulse return value into an error when it is negative (the one checking helper).
    static func check(
        _ result: Int32, _ operation: @autoclosure () -> String, context: OpaquePointer?
    ) throws(PulseError) {
        guard result < 0 else { return }
        throw last(context, operation())
    }

    /// Throws when a libpulse constructor returned NULL.
    static func check<T>(
        _ pointer: T?, _ operation: @autoclosure () -> String, context: OpaquePointer?
    ) throws(PulseError) -> T {
        guard let pointer else { throw last(context, operation()) }
        return pointer
    }
}
