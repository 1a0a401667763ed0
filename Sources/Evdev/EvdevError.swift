import CEvdev
import Glibc

/// A libevdev or system call on an input device failed: which call, on which device, and the errno.
///
/// `ENODEV` means the device was unplugged; `EACCES` that udev has not given it its group yet.
public struct EvdevError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function that failed (`open`, `libevdev_new_from_fd`, `libevdev_next_event`, …).
    public var call: String
    /// The device node, when the call concerned one.
    public var path: String
    /// The positive errno value.
    public var errno: Int32

    public init(call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// True when the device is gone (unplugged): close it and wait for it to come back.
    public var isDeviceGone: Bool { errno == ENODEV || errno == ENOENT || errno == EBADF }

    /// True when the node exists but this user may not open it (yet).
    public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }

    public var description: String {
        "\(call)(\(path)): \(String(cString: strerror(errno)))"
    }
}

/// The one checking helper: libevdev returns −errno on failure, the system calls −1 and set `errno`.
enum EvdevCheck {
    /// Throws for a negative libevdev return code (`-errno`), returns it otherwise.
    @discardableResult
    static func libevdev(_ rc: Int32, _ call: String, _ path: String) throws(EvdevError) -> Int32 {
        guard rc >= 0 else { throw EvdevError(call: call, path: path, errno: -rc) }
        return rc
    }

    /// Throws with the current `errno` when a system call returned −1.
    @discardableResult
    static func system(_ rc: Int32, _ call: String, _ path: String) throws(EvdevError) -> Int32 {
        guard rc >= 0 else { throw EvdevError(call: call, path: path, errno: Glibc.errno) }
        return rc
    }
}
