#if canImport(Glibc)
    import Glibc
#endif

/// A POSIX thread of its own for one piece of blocking work, outside Swift's cooperative pool: the one
/// way ClickWheel runs blocking I/O (the audio thread, evdev and keyboard readers, watchers, the I2C
/// writer, library scans, start-up and shutdown steps that open or close devices).
///
/// The thread carries `name` (the first 15 bytes, the kernel's limit), so `top -H`, `gdb` and crash
/// reports say which part it is. Whoever starts a thread that loops until told to stop joins it.
public final class NamedThread: Sendable {
    /// The thread; written once in `init`, read by `join` and `isCurrent`.
    nonisolated(unsafe) private var thread: pthread_t?
    public let name: String

    /// Why a thread could not be started (`pthread_create` failed: the process is out of threads or memory).
    public struct StartError: Error, Hashable, Sendable, CustomStringConvertible {
        public var name: String
        public var errno: Int32
        public var description: String { "cannot start the thread '\(name)': \(String(cString: strerror(errno)))" }
    }

    /// Starts `body` on a new thread named `name`; `stackSize` in bytes (nil: the system's default).
    public init(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) throws(StartError) {
        final class Box: @unchecked Sendable {  // handed to the new thread once, then owned by it alone
            let body: @Sendable () -> Void
            let name: String
            init(_ body: @escaping @Sendable () -> Void, _ name: String) {
                self.body = body
                self.name = name
            }
        }
        self.name = name
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        let context = Unmanaged.passRetained(Box(body, name)).toOpaque()
        var tid = pthread_t()
        let rc = pthread_create(
            &tid, &attributes,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                NamedThread.setCurrentName(box.name)
                box.body()
                return nil
            }, context)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw StartError(name: name, errno: rc)
        }
        thread = tid
    }

    /// Waits for the thread to end (`pthread_join`). Call it once, from the thread that started it
    /// (never from the thread itself: see `isCurrent`).
    public func join() {
        guard let tid = thread else { return }
        thread = nil
        pthread_join(tid, nil)
    }

    /// Starts `body` on a thread that nobody joins (it ends by itself; a detached pthread).
    public static func detach(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) throws(StartError) {
        let thread = try NamedThread(name: name, stackSize: stackSize, body)
        if let tid = thread.thread { pthread_detach(tid) }
        thread.thread = nil
    }

    /// True when called on this thread (a loop that stops itself must not join itself).
    public var isCurrent: Bool {
        guard let tid = thread else { return false }
        return pthread_equal(tid, pthread_self()) != 0
    }

    /// The name of the thread this is called on (tests and assertions of where code runs).
    public static var currentName: String {
        let fd = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return "" }
        return String(decoding: buffer[..<n].prefix { $0 != 10 }, as: UTF8.self)
    }

    /// Names the calling thread (its `comm`, which `pthread_setname_np` sets; that one is not
    /// visible to Swift without `_GNU_SOURCE`). Beyond 15 bytes the name is cut.
    static func setCurrentName(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Runs `body` on a thread of its own and awaits its result: blocking work (opening devices,
    /// binding sockets, closing them in order) called from async code without holding a thread of
    /// Swift's cooperative pool. If no thread can be started, `body` runs on the caller's.
    public static func run<T: Sendable>(_ name: String, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            do {
                try detach(name: name) { continuation.resume(returning: body()) }
            } catch {
                continuation.resume(returning: body())
            }
        }
    }
}
