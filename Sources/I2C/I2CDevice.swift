import CI2C
import Glibc

/// One slave on a Linux I2C bus (`/dev/i2c-N`): owns the descriptor, addressed once with the
/// `I2C_SLAVE` ioctl (through `cw_i2c_set_slave`), then written with plain `write()` calls.
///
/// `init` opens and addresses (`open`, `ioctl(I2C_SLAVE)`), `deinit` closes. Each `write` is one I2C
/// transfer (start, address, bytes, stop). Not thread-safe: the display's owner calls it.
public final class I2CDevice {
    public let path: String
    public let address: Int
    private let fd: Int32

    /// Opens `path` and talks to the 7-bit `address` (0x27 for a PCF8574, 0x3F for a PCF8574A).
    /// Fails with EBUSY when a kernel driver owns that address.
    public init(path: String, address: Int) throws(I2CError) {
        precondition((0x03...0x77).contains(address), "I2C addresses are 0x03…0x77")
        self.path = path
        self.address = address
        let fd = open(path, O_RDWR | O_CLOEXEC)
        try I2CError.check(Int(fd), "open", path)
        if cw_i2c_set_slave(fd, address) < 0 {
            let e = Glibc.errno
            Glibc.close(fd)
            throw I2CError(call: "ioctl(I2C_SLAVE)", path: path, errno: e)
        }
        self.fd = fd
    }

    deinit { Glibc.close(fd) }

    /// Sends `bytes` as one transfer (`write`); the PCF8574 latches each byte onto its pins in turn.
    public func write(_ bytes: [UInt8]) throws(I2CError) {
        guard !bytes.isEmpty else { return }
        while true {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && Glibc.errno == EINTR { continue }
            try I2CError.check(n, "write", path)
            guard n == bytes.count else { throw I2CError(call: "write", path: path, errno: EIO) }
            return
        }
    }
}

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
