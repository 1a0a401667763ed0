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
