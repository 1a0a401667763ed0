#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a pthread mutex: the project's lock for state that threads contend for by design (the
/// control socket's tag columns, a display's mailbox, calibrate's event queue, the tests' report logs).
///
/// Why not Synchronization's `Mutex`: the Thread Sanitizer (contrib/ci/tsan.sh) cannot see how a contended
/// `Mutex` is handed over. `Mutex` waits and wakes through a PI futex inside the Swift runtime library
/// (`_lockSlow`, `_unlockSlow`), which is not instrumented, so when the lock was contended TSan sees no
/// hand-off between the two holders and reports their accesses, both inside `withLock`, as a data race:
/// four threads adding under one `Mutex` get the right sum and a race report, under this lock none
/// (NamedThreadsTests' `LockedTests`). `pthread_mutex_lock` and `pthread_mutex_unlock` are intercepted by
/// TSan, so it sees this lock's every hand-off and reports only real races. `Mutex` stays where its lock
/// is seldom contended (TSan reports nothing there); a lock contended by design is this one.
///
/// The closure rule of `Mutex` holds here too (contrib/ci/check-architecture.sh, rule 7): keep a closure
/// in a struct, not bare as the value.
///
/// `@unchecked Sendable`: `value` (Sendable, since it leaves through `withLock`) is read and written only
/// inside `withLock`, with `mutex` held; `mutex` is allocated once, at a fixed address (a pthread mutex
/// must not move), and destroyed in `deinit`, when no thread can hold it.
public final class Locked<Value>: @unchecked Sendable where Value: Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed (\(rc))")
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value and the lock held: every other caller waits until it returns, and `body`
    /// must not call `withLock` on this value again (the mutex is not recursive).
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
