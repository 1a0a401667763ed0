import CMpg123

/// An error reported by libmpg123: the operation that failed, its code and libmpg123's own text.
public struct Mpg123Error: Error, CustomStringConvertible, Sendable {
    /// The libmpg123 function that failed (`mpg123_open_fd`, …).
    public var operation: String
    /// libmpg123's error code (`mpg123_errors`), or `MPG123_ERR` when only the handle knows more.
    public var code: Int32
    /// Human-readable reason, from `mpg123_strerror`/`mpg123_plain_strerror`.
    public var message: String

    public init(operation: String, code: Int32, message: String) {
        self.operation = operation
        self.code = code
        self.message = message
    }

    public var description: String { "\(operation): \(message)" }

    /// Turns a return code into an error when it is not `MPG123_OK` (the one checking helper).
    static func check(_ code: Int32, _ operation: @autoclosure () -> String, handle: OpaquePointer?) throws(Mpg123Error) {
        guard code != MPG123_OK.rawValue else { return }
        throw Mpg123Error(operation: operation(), code: code, message: Self.text(for: code, handle: handle))
    }

    static func text(for code: Int32, handle: OpaquePointer?) -> String {
        if code == MPG123_ERR.rawValue, let handle, let text = mpg123_strerror(handle) {
            return String(cString: text)
        }
        return mpg123_plain_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
