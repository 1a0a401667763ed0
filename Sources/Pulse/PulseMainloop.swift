import CPulse

/// Owns one `pa_threaded_mainloop`: `init` calls `pa_threaded_mainloop_new` and `_start`, `deinit` calls
/// `_stop` and `_free`.
///
/// Thread rules: `lock`/`unlock`/`withLock`/`wait` may be called from any thread except the loop thread
/// itself (callbacks already hold the lock); `signal` only with the lock held (callbacks hold it).
/// libpulse's lock is recursive, but `wait` releases one level only: never wait with the lock taken twice,
/// so the wrapper methods that wait (connect, cork, flush, upload) must not be called under `withLock`.
/// Release the last reference outside the lock and off the loop thread (`pa_threaded_mainloop_stop`).
/// `@unchecked Sendable`: it holds only the loop pointer, and libpulse's threaded mainloop is made to be shared under its own lock.
public final class PulseMainloop: @unchecked Sendable {
    let loop: OpaquePointer

    /// Creates and starts the loop thread (`pa_threaded_mainloop_new`, `pa_threaded_mainloop_start`).
    public init(name: String = "pulse-loop") throws(PulseError) {
        loop = try PulseError.check(pa_threaded_mainloop_new(), "pa_threaded_mainloop_new", context: nil)
        pa_threaded_mainloop_set_name(loop, name)
        let result = pa_threaded_mainloop_start(loop)
        if result < 0 {
            pa_threaded_mainloop_free(loop)
            throw PulseError.code(Int32(PA_ERR_INTERNAL.rawValue), "pa_threaded_mainloop_start")
        }
    }

    deinit {
        pa_threaded_mainloop_stop(loop)
        pa_threaded_mainloop_free(loop)
    }

    /// The loop's `pa_mainloop_api`, for `pa_context_new` (`pa_threaded_mainloop_get_api`).
    var api: UnsafeMutablePointer<pa_mainloop_api> { pa_threaded_mainloop_get_api(loop) }

    /// Takes the loop lock (`pa_threaded_mainloop_lock`).
    public func lock() { pa_threaded_mainloop_lock(loop) }

    /// Releases the loop lock (`pa_threaded_mainloop_unlock`).
    public func unlock() { pa_threaded_mainloop_unlock(loop) }

    /// Runs `body` with the loop lock held.
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Sleeps until a callback calls `signal` (`pa_threaded_mainloop_wait`); lock held; wakeups can be
    /// spurious, so call it inside `while !condition`.
    public func wait() { pa_threaded_mainloop_wait(loop) }

    /// Wakes every thread in `wait` (`pa_threaded_mainloop_signal`, no accept); lock held.
    public func signal() { pa_threaded_mainloop_signal(loop, 0) }

    /// True on the loop thread (`pa_threaded_mainloop_in_thread`).
    public var isLoopThread: Bool { pa_threaded_mainloop_in_thread(loop) != 0 }

    /// Waits, lock held, until `operation` is no longer running or `abandon()` says the owner died
    /// (`pa_operation_get_state`), then releases it (`pa_operation_unref`). Returns true when it finished.
    @discardableResult
    func wait(for operation: OpaquePointer, abandon: () -> Bool) -> Bool {
        while pa_operation_get_state(operation) == PA_OPERATION_RUNNING && !abandon() {
            wait()
        }
        let done = pa_operation_get_state(operation) == PA_OPERATION_DONE
        if !done { pa_operation_cancel(operation) }
        pa_operation_unref(operation)
        return done
    }
}

/// A `pa_*_success_cb_t`-shaped completion that only wakes the waiters; `userdata` is the loop pointer.
let signalLoopOnSuccess: @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, _, userdata in
    guard let userdata else { return }
    pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
}
