import Glibc

/// A call on an I2C bus device failed: which call, on which bus, and the errno.
public struct I2CError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function that failed (`open`, `ioctl(I2C_SLAVE)`, `write`).
    public var call: String
    public var path: String
    public var errno: Int32

    public init(call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    public var description: String { "\(call)(\(path)): \(String(cString: strerror(errno)))" }

    /// The one checking helper: a system call returned −1, so `errno` says why.
    static func check(_ rc: Int, _ call: String, _ path: String) throws(I2CError) {
        guard rc >= 0 else { throw I2CError(call: call, path: path, errno: Glibc.errno) }
    }
}
