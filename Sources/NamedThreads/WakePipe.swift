import Glibc

extension NamedThread {
    /// Starts a shell's poll loop (an evdev reader, a folder watcher, a display writer) on a thread named
    /// `name`; whoever starts it joins it after signalling the loop to end through its `WakePipe`.
    public static func loop(_ name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) -> NamedThread {
        do {
            return try NamedThread(name: name, body)
        } catch {
            throw SystemCallError(call: "pthread_create", detail: name, errno: error.errno)
        }
    }
}

/// A pipe whose read end wakes a `poll` loop: `signal()` from any thread, the loop polls `readFD`.
/// `@unchecked Sendable`: its descriptors never change, and `write(2)` may come from any thread.
public final class WakePipe: @unchecked Sendable {
    public let readFD: Int32
    private let writeFD: Int32

    public init() throws(SystemCallError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw SystemCallError(call: "pipe", detail: "wake pipe", errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Makes `readFD` readable (`write` of one byte); safe from any thread, idempotent in effect.
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }
}

/// A system call of a thread's loop failed (threads, pipes, sockets, inotify).
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    public var call: String
    /// What it concerned (a path, host:port, a thread's name).
    public var detail: String
    public var errno: Int32

    public init(call: String, detail: String, errno: Int32) {
        self.call = call
        self.detail = detail
        self.errno = errno
    }

    public var description: String { "\(call)(\(detail)): \(String(cString: strerror(errno)))" }
}

/// Blocking sleeps for device threads (never the cooperative pool): `usleep`.
public enum SystemSleep {
    /// Sleeps at least `n` microseconds.
    public static func microseconds(_ n: Int) {
        guard n > 0 else { return }
        usleep(UInt32(n))
    }
}
