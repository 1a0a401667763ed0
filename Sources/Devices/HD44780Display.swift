public import ClickWheelCore
import Glibc
import I2C
public import Logging
import NamedThreads
import Synchronization

/// The `hd44780` display: an HD44780 behind a PCF8574 I2C backpack, written on its own thread.
///
/// `show` and `setBacklight` only leave the newest frame and backlight state in a mailbox and wake
/// the writer thread, which drives an `HD44780Writer` (init, CGRAM glyphs, changed cells, periodic
/// re-init) — a full 20×4 redraw takes ~35 ms of I2C at 100 kHz, which the UI loop never waits for.
/// Frames that arrive while one is being written are coalesced (the newest wins). A write error is
/// logged once, reported by the next `show`, and healed by re-initialising on the next attempt (the
/// writer retries every second). Thread rules: `show`, `setBacklight`, `flush` and `close` from the
/// UI loop; the writer thread owns the bus.
/// `@unchecked Sendable`: frames reach the writer thread through the `mailbox` Mutex; the bus belongs to the writer thread.
public final class HD44780Display: TextDisplay, @unchecked Sendable {
    public let geometry: DisplayGeometry
    public let charset: TextCharset

    private struct Mailbox {
        var frame: Frame?
        var backlight: Bool?
        var closing = false
        var busy = false
        var error: String?
    }

    private let writer: HD44780Writer
    private let logger: Logger
    private let mailbox = Mutex(Mailbox())
    private let wake: WakePipe
    private var thread: NamedThread?

    /// Drives the display through `sink`; the writer thread initialises it at once.
    public init(
        sink: any ByteSink, geometry: DisplayGeometry, pins: PCF8574PinMap = .common,
        charset: TextCharset = .hd44780A00, reinitSeconds: Int = 300,
        logger: Logger = Logger(label: "clickwheel.hd44780")
    ) throws {
        self.geometry = geometry
        self.charset = charset
        self.logger = logger
        writer = HD44780Writer(
            sink: sink, geometry: geometry, pins: pins, charset: charset, reinitSeconds: reinitSeconds)
        wake = try WakePipe()
        mailbox.withLock { $0.busy = true }
        thread = try NamedThread.device("hd44780") { [self] in run() }
    }

    /// Opens `bus` (e.g. /dev/i2c-1) at `address` (0x27 or 0x3F) and drives the display there.
    public convenience init(
        bus: String, address: Int = 0x27, geometry: DisplayGeometry, pins: PCF8574PinMap = .common,
        reinitSeconds: Int = 300, logger: Logger = Logger(label: "clickwheel.hd44780")
    ) throws {
        try self.init(
            sink: I2CByteSink(bus: bus, address: address), geometry: geometry, pins: pins,
            reinitSeconds: reinitSeconds, logger: logger)
    }

    public func show(_ frame: Frame) throws {
        precondition(frame.columns == geometry.columns && frame.rows == geometry.rows, "frame of another size")
        let error = mailbox.withLock { m -> String? in
            m.frame = frame
            defer { m.error = nil }
            return m.error
        }
        wake.signal()
        if let error { throw DeviceIOError(call: "hd44780 write", detail: error, errno: EIO) }
    }

    public func setBacklight(_ on: Bool) throws {
        mailbox.withLock { $0.backlight = on }
        wake.signal()
    }

    /// Waits until everything handed over has been written (the debug harness, tests); false on timeout.
    @discardableResult
    public func flush(timeoutMS: Int = 2000) -> Bool {
        let deadline = MonotonicClock.now().adding(ms: Int64(timeoutMS))
        while MonotonicClock.now() < deadline {
            if mailbox.withLock({ $0.frame == nil && $0.backlight == nil && !$0.busy }) { return true }
            SystemSleep.microseconds(1000)
        }
        return false
    }

    /// Blanks the glass, switches the backlight off and ends the writer thread.
    public func close() {
        guard let thread else { return }
        mailbox.withLock { $0.closing = true }
        wake.signal()
        thread.join()
        self.thread = nil
    }

    deinit { close() }

    /// The writer thread: wait for work (or a second, for retries and the periodic re-init), write it.
    private func run() {
        var last: Frame?
        var started = false
        var failing = false
        var scratch = [UInt8](repeating: 0, count: 64)
        while true {
            let work = mailbox.withLock { m in
                defer {
                    m.frame = nil
                    m.backlight = nil
                    m.busy = true
                }
                return (m.frame, m.backlight, m.closing)
            }
            do {
                if work.2 {
                    try writer.blank()
                    return
                }
                if !started {
                    try writer.initialise()
                    started = true
                }
                if let on = work.1 { try writer.setBacklight(on) }
                if let frame = work.0 ?? last {
                    last = frame
                    try writer.draw(frame)
                }
                if failing { logger.notice("hd44780: writing again") }
                failing = false
            } catch {
                if !failing { logger.error("hd44780: \(error); re-initialising on the next try") }
                failing = true
                mailbox.withLock { $0.error = "\(error)" }
                if work.2 { return }
            }
            let idle = mailbox.withLock { m -> Bool in
                m.busy = m.frame != nil || m.backlight != nil || m.closing
                return !m.busy
            }
            guard idle else { continue }
            var fds = [pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, 1000)
            _ = read(wake.readFD, &scratch, scratch.count)
        }
    }
}

/// The real bus: an `I2CDevice` (/dev/i2c-N, `I2C_SLAVE`), one `write()` per transfer.
public final class I2CByteSink: ByteSink {
    private let device: I2CDevice

    /// Opens `bus` and addresses the backpack at `address`.
    public init(bus: String, address: Int) throws {
        device = try I2CDevice(path: bus, address: address)
    }

    public func write(_ bytes: [UInt8]) throws {
        try device.write(bytes)
    }
}
