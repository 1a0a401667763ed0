import COpusFile

/// An error reported by libopusfile: the operation that failed, its `OP_E…` code and what it means.
public struct OpusError: Error, CustomStringConvertible, Sendable {
    /// The libopusfile function that failed (`op_open_file`, …).
    public var operation: String
    /// libopusfile's (negative) return code.
    public var code: Int
    public var message: String

    public init(operation: String, code: Int) {
        self.operation = operation
        self.code = code
        message = Self.text(code)
    }

    public var description: String { "\(operation): \(message)" }

    /// Turns a negative return code into an error (the one checking helper); passes others through.
    @discardableResult
    static func check<T: BinaryInteger>(_ code: T, _ operation: @autoclosure () -> String) throws(OpusError) -> T {
        guard code < 0 else { return code }
        throw OpusError(operation: operation(), code: Int(code))
    }

    /// The meaning of an `OP_E…` code (libopusfile has no strerror of its own).
    static func text(_ code: Int) -> String {
        switch code {
        case -1: "not true, or no data available"
        case -2: "end of file"
        case -3: "a gap in the data (damaged or missing pages)"
        case -128: "read error"
        case -129: "internal error"
        case -130: "feature not implemented"
        case -131: "invalid argument"
        case -132: "not Ogg Opus data"
        case -133: "invalid Opus header"
        case -134: "unknown Opus version"
        case -135: "not audio data"
        case -136: "invalid packet"
        case -137: "invalid stream link"
        case -138: "stream not seekable"
        case -139: "invalid granule position"
        default: "error \(code)"
        }
    }

    /// `OP_HOLE`: a gap in the data; decoding goes on after it.
    public var isHole: Bool { code == -3 }
}
