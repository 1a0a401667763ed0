import CVorbisFile

/// An error reported by libvorbisfile: the operation that failed, its `OV_E…` code and what it means.
public struct VorbisError: Error, CustomStringConvertible, Sendable {
    /// The libvorbisfile function that failed (`ov_fopen`, …).
    public var operation: String
    /// libvorbisfile's (negative) return code.
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
    static func check<T: BinaryInteger>(_ code: T, _ operation: @autoclosure () -> String) throws(VorbisError) -> T {
        guard code < 0 else { return code }
        throw VorbisError(operation: operation(), code: Int(code))
    }

    /// The meaning of an `OV_E…` code (libvorbisfile has no strerror of its own).
    static func text(_ code: Int) -> String {
        switch Int32(code) {
        case OV_FALSE: "not true, or no data available"
        case OV_EOF: "end of file"
        case OV_HOLE: "a gap in the data (damaged or missing pages)"
        case OV_EREAD: "read error"
        case OV_EFAULT: "internal error"
        case OV_EIMPL: "feature not implemented"
        case OV_EINVAL: "invalid argument"
        case OV_ENOTVORBIS: "not Vorbis data"
        case OV_EBADHEADER: "invalid Vorbis header"
        case OV_EVERSION: "Vorbis version mismatch"
        case OV_ENOTAUDIO: "not audio data"
        case OV_EBADPACKET: "invalid packet"
        case OV_EBADLINK: "invalid stream section or corrupt link"
        case OV_ENOSEEK: "stream not seekable"
        default: "error \(code)"
        }
    }
}
