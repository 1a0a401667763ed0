import Glibc

/// A POSIX thread running one blocking loop, outside Swift's cooperative pool (`pthread_create`).
///
/// Readers (evdev devices, the hotplug watcher) each get one; `join` (`pthread_join`) is called by
/// whoever started it, after signalling the loop to end through its `WakePipe`.
final class DedicatedThread {
    private var thread: pthread_t?

    /// Starts `body` on a new thread; `name` says which in errors.
    init(name: String, _ body: @escaping @Sendable () -> Void) throws(DeviceIOError) {
        final class Box: @unchecked Sendable {
            let body: @Sendable () -> Void
            let name: String
            init(_ body: @escaping @Sendable () -> Void, _ name: String) {
                self.body = body
                self.name = name
            }
        }
        let context = Unmanaged.passRetained(Box(body, name)).toOpaque()
        var tid = pthread_t()
        let rc = pthread_create(
            &tid, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, context)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw DeviceIOError(call: "pthread_create", detail: name, errno: rc)
        }
        thread = tid
    }

    /// Waits for the loop to end (`pthread_join`); a second call does nothing.
    func join() {
        guard let tid = thread else { return }
        thread = nil
        pthread_join(tid, nil)
    }

    /// True when called on this thread (a loop that stops itself must not join itself).
    var isCurrent: Bool {
        guard let tid = thread else { return false }
        return pthread_equal(tid, pthread_self()) != 0
    }
}

/// A pipe whose read end wakes a `poll` loop: `signal()` from any thread, the loop polls `readFD`.
final class WakePipe: @unchecked Sendable {
    let readFD: Int32
    private let writeFD: Int32

    init() throws(DeviceIOError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw DeviceIOError(call: "pipe", detail: "wake pipe", errno: errno) }
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
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }
}

/// A system call of a device shell failed (threads, pipes, sockets, inotify).
public struct DeviceIOError: Error, Hashable, Sendable, CustomStringConvertible {
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
