import Glibc
public import Logging
public import NamedThreads

/// Watches a folder and every folder below it with inotify and calls `onChange` once things have
/// settled (the music folder → a library rescan); where inotify cannot watch, checks periodically.
///
/// Every folder gets a watch for IN_CLOSE_WRITE, IN_MOVED_FROM/TO, IN_CREATE, IN_DELETE and
/// IN_DELETE_SELF; folders created or moved in later get theirs when they appear; IN_Q_OVERFLOW
/// re-walks the tree. `onChange` runs `debounceMS` after the last change (at the latest `maxDelayMS`
/// after the first, so a long copy still shows up as it goes). When inotify is not available or
/// the watch limit (`fs.inotify.max_user_watches`) is reached, the watcher logs one line and calls
/// `onChange` every `periodMS` instead (the incremental scan is a cheap stat walk).
///
/// Thread rules: `start` and `stop` from the owner's thread; `onChange` runs on the watcher's
/// dedicated thread (hand work off; it must not block for long).
/// `@unchecked Sendable`: the watch table and descriptor are set up by `start` before the watcher thread exists and used by that thread alone until `stop` joins it.
public final class FolderWatcher: @unchecked Sendable {
    /// How the folder is being followed.
    public enum Mode: Equatable, Sendable {
        case inotify(watches: Int)
        case periodic(reason: String)
    }

    public let folder: String
    private let debounceMS: Int
    private let maxDelayMS: Int
    private let periodMS: Int
    private let watchLimit: Int
    private let logger: Logger
    private var fd: Int32 = -1
    /// Watch descriptor → the folder's path (touched only by `start`, then the watcher thread).
    private var paths: [Int32: String] = [:]
    private var fallback: String?
    private let wake: WakePipe
    private var thread: NamedThread?

    static let mask = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_ONLYDIR
            | IN_DONT_FOLLOW)

    public init(
        folder: String, debounceMS: Int = 2000, maxDelayMS: Int = 30_000, periodMS: Int = 600_000,
        watchLimit: Int = .max, logger: Logger
    ) throws(SystemCallError) {
        self.watchLimit = watchLimit
        self.folder = folder
        self.debounceMS = debounceMS
        self.maxDelayMS = maxDelayMS
        self.periodMS = periodMS
        self.logger = logger
        wake = try WakePipe()
    }

    deinit {
        stop()
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Sets up the watches (or the periodic check) and starts the thread; says which it is.
    @discardableResult
    public func start(_ onChange: @escaping @Sendable () -> Void) throws(SystemCallError) -> Mode {
        precondition(thread == nil, "watcher started twice")
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        if fd < 0 {
            fallBack("inotify is not available (\(String(cString: strerror(errno))))")
        } else {
            addTree(folder)
        }
        let mode: Mode = fallback.map { .periodic(reason: $0) } ?? .inotify(watches: paths.count)
        thread = try NamedThread.loop("folder watcher") { [self] in run(onChange) }
        return mode
    }

    /// Ends the thread and waits for it.
    public func stop() {
        wake.signal()
        thread?.join()
        thread = nil
    }

    /// Switches to the periodic check for good (one log line).
    private func fallBack(_ reason: String) {
        guard fallback == nil else { return }
        fallback = reason
        logger.warning("library: \(reason): checking \(folder) every \(periodMS / 60_000) min instead of watching it")
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        paths = [:]
    }

    /// Watches `path` and every folder below it (symbolic links are not followed).
    private func addTree(_ path: String) {
        var pending = [path]
        while let dir = pending.popLast(), fallback == nil {
            let wd = paths.count < watchLimit ? inotify_add_watch(fd, dir, Self.mask) : -1
            if wd < 0 {
                if paths.count >= watchLimit { errno = ENOSPC }
                let e = errno
                if e == ENOSPC || e == ENOMEM {
                    fallBack("the inotify watch limit is reached (fs.inotify.max_user_watches)")
                } else if dir == folder {
                    fallBack("cannot watch the music folder (\(String(cString: strerror(e))))")
                }
                continue
            }
            paths[wd] = dir
            pending += Self.subfolders(of: dir)
        }
    }

    /// The folders directly inside `dir` (not links to folders), hidden ones included.
    static func subfolders(of dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var result: [String] = []
        while let entry = readdir(d) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let path = dir + "/" + name
            var isDir = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var st = stat()
                isDir = lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
            }
            if isDir { result.append(path) }
        }
        return result
    }

    private func run(_ onChange: @Sendable () -> Void) {
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        var firstChange: Int64?
        var lastChange: Int64 = 0
        var lastPeriodic = Self.nowMS()
        while true {
            let now = Self.nowMS()
            var timeout: Int
            if fd < 0 {
                timeout = Int(max(0, lastPeriodic + Int64(periodMS) - now))
            } else if let first = firstChange {
                let due = min(lastChange + Int64(debounceMS), first + Int64(maxDelayMS))
                timeout = Int(max(0, due - now))
            } else {
                timeout = -1
            }
            var fds = [
                pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            ]
            let n = poll(&fds, fd >= 0 ? 2 : 1, Int32(clamping: timeout))
            if n < 0 {
                if errno == EINTR { continue }
                logger.error("library: the folder watcher stopped: \(String(cString: strerror(errno)))")
                return
            }
            if fds[0].revents != 0 { return }
            if n == 0 {
                // Timed out: the periodic check, or the changes have settled.
                if fd < 0 { lastPeriodic = Self.nowMS() }
                firstChange = nil
                onChange()
                continue
            }
            let count = read(fd, buffer, size)
            guard count > 0 else { continue }
            if readEvents(UnsafeRawBufferPointer(start: buffer, count: count)) {
                lastChange = Self.nowMS()
                if firstChange == nil { firstChange = lastChange }
            }
            if fd < 0 {
                // Fell back while adding watches for a new folder: the periodic check starts now, and
                // the change just seen is picked up right away.
                firstChange = nil
                lastPeriodic = Self.nowMS()
                onChange()
            }
        }
    }

    /// Handles the `struct inotify_event` records in `bytes`: new folders get watches, gone ones lose
    /// theirs. True when something in the tree changed.
    private func readEvents(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var changed = false
        for event in Self.events(in: bytes) {
            let mask = Int32(bitPattern: event.mask)
            if mask & Int32(IN_Q_OVERFLOW) != 0 {
                logger.notice("library: inotify queue overflow; rewalking \(folder)")
                addTree(folder)
                changed = true
                continue
            }
            if mask & Int32(IN_IGNORED) != 0 {
                paths[event.wd] = nil
                continue
            }
            guard let dir = paths[event.wd] else { continue }
            changed = true
            if mask & Int32(IN_ISDIR) != 0 && mask & Int32(IN_CREATE | IN_MOVED_TO) != 0 && !event.name.isEmpty {
                addTree(dir + "/" + event.name)
            }
        }
        return changed
    }

    /// One inotify record: watch, mask and the entry's name (empty for the watched folder itself).
    struct Event: Equatable {
        var wd: Int32
        var mask: UInt32
        var name: String
    }

    static func events(in bytes: UnsafeRawBufferPointer) -> [Event] {
        var events: [Event] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.count {
            let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let start = offset + header
            var name = ""
            if length > 0 && start + length <= bytes.count {
                name = String(decoding: bytes[start..<start + length].prefix { $0 != 0 }, as: UTF8.self)
            }
            events.append(Event(wd: wd, mask: mask, name: name))
            offset = start + length
        }
        return events
    }

    /// Monotonic milliseconds (`CLOCK_MONOTONIC`).
    static func nowMS() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
