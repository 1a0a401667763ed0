/// What the scrobble log needs to know about time: whether the wall clock is right, and a clock that
/// keeps counting from boot whatever the wall clock does, to work a listen's start time back once the
/// wall clock is set. A port: the service passes the system's (`SystemClock` in Devices), tests their own.
public struct ScrobbleClock: Sendable {
    /// The wall clock is known to be right (synchronised). Called on the log's queue, every few seconds
    /// while listens wait: it must be cheap.
    public var isSynchronised: @Sendable () -> Bool
    /// This boot's identity (`/proc/sys/kernel/random/boot_id`): `bootMS` values of another boot
    /// cannot be compared with this one's.
    public var bootID: String
    /// Milliseconds since boot, counting suspend (CLOCK_BOOTTIME).
    public var bootMS: @Sendable () -> Int64
    /// The wall clock, Unix milliseconds.
    public var unixMS: @Sendable () -> Int64

    public init(
        isSynchronised: @escaping @Sendable () -> Bool, bootID: String, bootMS: @escaping @Sendable () -> Int64,
        unixMS: @escaping @Sendable () -> Int64
    ) {
        self.isSynchronised = isSynchronised
        self.bootID = bootID
        self.bootMS = bootMS
        self.unixMS = unixMS
    }
}
