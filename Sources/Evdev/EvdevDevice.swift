import CEvdev
import Glibc

/// One open input device: owns the file descriptor and the `struct libevdev *` read from it.
///
/// `init` opens the node non-blocking (`open`, `libevdev_new_from_fd`), `deinit` releases both
/// (`libevdev_free`, `close`). Events come from `nextEvent()`, which resynchronises after a
/// `SYN_DROPPED` through libevdev's sync mode. Not thread-safe: one reader thread owns a device
/// from open to close (the thread that polls `fileDescriptor`).
public final class EvdevDevice {
    /// The node it was opened from (`/dev/input/event3`).
    public let path: String
    /// The open descriptor, for `poll`.
    public let fileDescriptor: Int32
    private let handle: OpaquePointer
    /// The handle for the capability queries in `EvdevDevice+Capabilities.swift`.
    var handleForExtensions: OpaquePointer { handle }
    private var syncing = false
    private var grabbed = false

    /// Opens `path` read-only and non-blocking and lets libevdev read its description.
    public init(path: String) throws(EvdevError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try EvdevCheck.system(fd, "open", path)
        var dev: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &dev)
        guard rc >= 0, let dev else {
            Glibc.close(fd)
            throw EvdevError(call: "libevdev_new_from_fd", path: path, errno: rc < 0 ? -rc : EINVAL)
        }
        fileDescriptor = fd
        handle = dev
    }

    deinit {
        if grabbed { _ = libevdev_grab(handle, LIBEVDEV_UNGRAB) }
        libevdev_free(handle)
        Glibc.close(fileDescriptor)
    }

    /// The device's name (`libevdev_get_name`), e.g. "rotary@11" or "gpio_keys".
    public var name: String { libevdev_get_name(handle).map { String(cString: $0) } ?? "" }

    /// The physical location (`libevdev_get_phys`), nil when the device has none.
    public var phys: String? { libevdev_get_phys(handle).map { String(cString: $0) } }

    /// The unique identifier (`libevdev_get_uniq`), nil when the device has none.
    public var uniq: String? { libevdev_get_uniq(handle).map { String(cString: $0) } }

    /// Bus, vendor, product and version (`libevdev_get_id_*`).
    public var id: EvdevID {
        EvdevID(
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(handle)))
    }

    /// The evdev driver version (`libevdev_get_driver_version`).
    public var driverVersion: Int32 { libevdev_get_driver_version(handle) }

    /// Takes the device for this descriptor alone (`libevdev_grab` with LIBEVDEV_GRAB, EVIOCGRAB), so the
    /// console, logind and other readers no longer see its events.
    public func grab() throws(EvdevError) {
        try EvdevCheck.libevdev(libevdev_grab(handle, LIBEVDEV_GRAB), "libevdev_grab", path)
        grabbed = true
    }

    /// Releases a grab (`libevdev_grab` with LIBEVDEV_UNGRAB).
    public func ungrab() throws(EvdevError) {
        try EvdevCheck.libevdev(libevdev_grab(handle, LIBEVDEV_UNGRAB), "libevdev_grab", path)
        grabbed = false
    }

    /// Asks the kernel to stamp events with CLOCK_MONOTONIC (`libevdev_set_clock_id`, EVIOCSCLOCKID);
    /// false when it cannot (umockdev does not emulate it), in which case events keep CLOCK_REALTIME.
    public func useMonotonicClock() -> Bool {
        libevdev_set_clock_id(handle, CLOCK_MONOTONIC) == 0
    }

    /// The next queued event (`libevdev_next_event`), or nil when none is waiting (EAGAIN).
    ///
    /// After a `SYN_DROPPED` this returns that event, then the events libevdev synthesises in sync
    /// mode (LIBEVDEV_READ_FLAG_SYNC, marked `fromSync`) to bring the caller's state up to date, then
    /// normal events again. Throws `EvdevError` with ENODEV when the device was unplugged.
    public func nextEvent() throws(EvdevError) -> EvdevEvent? {
        var raw = input_event()
        let flags = syncing ? LIBEVDEV_READ_FLAG_SYNC.rawValue : LIBEVDEV_READ_FLAG_NORMAL.rawValue
        let rc = libevdev_next_event(handle, flags, &raw)
        if rc == -EAGAIN {
            guard syncing else { return nil }
            syncing = false
            return try nextEvent()
        }
        let status = try EvdevCheck.libevdev(rc, "libevdev_next_event", path)
        var event = EvdevEvent(
            seconds: cw_input_event_sec(&raw), microseconds: cw_input_event_usec(&raw), type: raw.type,
            code: raw.code, value: raw.value)
        if status == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
            if syncing {
                event.fromSync = true
            } else {
                syncing = true
            }
        }
        return event
    }
}
