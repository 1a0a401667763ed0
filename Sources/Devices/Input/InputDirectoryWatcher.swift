import Glibc
import NamedThreads

/// Watches a device directory (`/dev/input`) with inotify and reports names that appear or change.
///
/// `inotify_init1` + `inotify_add_watch` for IN_CREATE, IN_ATTRIB (udev set the group or mode) and
/// IN_MOVED_TO; a dedicated thread polls it and calls `onChange` with each entry's name. `start`
/// and `stop` from the owner's thread; `onChange` runs on the watcher thread.
/// `@unchecked Sendable`: `thread` changes only on the owner's thread; the watcher thread reads `fd` and `wake`, which never change.
final class InputDirectoryWatcher: @unchecked Sendable {
    let directory: String
    private let fd: Int32
    private let wake: WakePipe
    private var thread: NamedThread?

    /// Sets up the watch; throws when `directory` cannot be watched (missing, or no inotify).
    init(directory: String) throws(SystemCallError) {
        self.directory = directory
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw SystemCallError(call: "inotify_init1", detail: directory, errno: errno) }
        let mask = UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            let e = errno
            Glibc.close(fd)
            throw SystemCallError(call: "inotify_add_watch", detail: directory, errno: e)
        }
        self.fd = fd
        wake = try WakePipe()
    }

    deinit {
        stop()
        Glibc.close(fd)
    }

    /// Starts the watcher thread.
    func start(_ onChange: @escaping @Sendable (String) -> Void) throws(SystemCallError) {
        precondition(thread == nil, "watcher started twice")
        thread = try NamedThread.loop("input hotplug") { [self] in run(onChange) }
    }

    /// Ends the thread and waits for it.
    func stop() {
        wake.signal()
        thread?.join()
        thread = nil
    }

    private func run(_ onChange: @Sendable (String) -> Void) {
        let size = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            var fds = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            let n = read(fd, buffer, size)
            guard n > 0 else { continue }
            for name in Self.names(in: UnsafeRawBufferPointer(start: buffer, count: n)) { onChange(name) }
        }
    }

    /// The entry names of the `struct inotify_event` records in `bytes` (those with a name).
    static func names(in bytes: UnsafeRawBufferPointer) -> [String] {
        var names: [String] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.count {
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let start = offset + header
            if length > 0 && start + length <= bytes.count {
                let raw = bytes[start..<start + length].prefix { $0 != 0 }
                names.append(String(decoding: raw, as: UTF8.self))
            }
            offset = start + length
        }
        return names
    }
}
