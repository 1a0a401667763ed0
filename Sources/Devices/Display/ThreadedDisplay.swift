public import ClickWheelCore
import Foundation
import Glibc
public import Logging
import NamedThreads

/// The blocking half of a display: what a `ThreadedDisplay`'s writer thread drives (LCDd over TCP, an
/// HD44780 over I2C). Every call may block as long as the device takes.
///
/// Thread rules: the writer thread only, after `init` (one caller at a time).
public protocol DisplayDevice: AnyObject {
    var geometry: DisplayGeometry { get }
    var charset: TextCharset { get }
    /// Shows `frame`; throws when the device could not be written (the writer retries later).
    func write(_ frame: Frame) throws
    /// Switches the backlight.
    func writeBacklight(_ on: Bool) throws
    /// False while the last frame is not on the device for a reason the device handled itself (LCDd
    /// away, a reconnect not yet due): the writer calls `write` with it again after `retryMS`.
    var isCaughtUp: Bool { get }
    /// Leaves the device as the user should find it (an LCD blanked, LCDd told `bye`).
    func finish()
}

/// A display written on a thread of its own, so the engine never waits for a device.
///
/// `show` and `setBacklight` leave the newest frame and backlight state in a mailbox, wake the writer
/// and return: a frame that arrives while another is being written replaces any unsent one (the
/// device catches up with the latest frame, not every frame). A device that fails or is away is
/// retried every `retryMS` with the latest frame; a failure is logged once, reported by the next
/// `show` (the engine loop logs it), and its end is logged once. With `periodMS` the latest frame is
/// written again that often even when nothing changed (an HD44780's periodic re-initialisation).
///
/// Thread rules: `show`, `setBacklight`, `flush` and `close` from the display's owner (the engine
/// loop); the writer thread owns the device. `@unchecked Sendable`: frames reach the writer thread
/// through the locked `mailbox`; the device is touched by the writer thread alone after `init`.
public final class ThreadedDisplay: TextDisplay, @unchecked Sendable {
    public let geometry: DisplayGeometry
    public let charset: TextCharset

    private struct Mailbox {
        var frame: Frame?
        var backlight: Bool?
        var closing = false
        /// The writer is writing (or has work it has not taken yet).
        var busy = false
        var error: String?
        /// Frames handed over by `show`, and frames the writer wrote (tests: coalescing).
        var shown = 0
        var written = 0
    }

    private let device: any DisplayDevice
    private let name: String
    private let retryMS: Int
    private let periodMS: Int?
    private let logger: Logger
    /// `Locked` rather than a `Mutex`: `show` and the writer contend for it by design, and the Thread
    /// Sanitizer sees only a pthread mutex's hand-off (see `Locked`).
    private let mailbox = Locked(Mailbox())
    private let wake: WakePipe
    private var thread: NamedThread?

    /// Starts the writer thread `name` for `device`; `retryMS` paces retries while the device is away.
    public init(
        _ device: any DisplayDevice, name: String, retryMS: Int = 500, periodMS: Int? = nil,
        logger: Logger = Logger(label: "clickwheel.display")
    ) throws {
        self.device = device
        self.name = name
        self.retryMS = retryMS
        self.periodMS = periodMS
        self.logger = logger
        geometry = device.geometry
        charset = device.charset
        wake = try WakePipe()
        // `DisplayDevice` is not Sendable: the writer thread gets it through the (unchecked) self.
        thread = try NamedThread.loop(name) { [self] in run() }
    }

    public func show(_ frame: Frame) throws {
        precondition(frame.columns == geometry.columns && frame.rows == geometry.rows, "frame of another size")
        let error = mailbox.withLock { m -> String? in
            m.frame = frame
            m.shown += 1
            defer { m.error = nil }
            return m.error
        }
        wake.signal()
        if let error { throw SystemCallError(call: "\(name) write", detail: error, errno: EIO) }
    }

    public func setBacklight(_ on: Bool) throws {
        mailbox.withLock { $0.backlight = on }
        wake.signal()
    }

    /// Frames handed to `show` so far, and frames the device was given (fewer when frames coalesced).
    public var counts: (shown: Int, written: Int) { mailbox.withLock { ($0.shown, $0.written) } }

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

    /// Writes what is pending, leaves the device (`finish`) and ends the writer thread.
    public func close() {
        guard let thread else { return }
        mailbox.withLock { $0.closing = true }
        wake.signal()
        thread.join()
        self.thread = nil
    }

    deinit { close() }

    /// The writer thread: take the newest work, write it, then sleep until woken (or until a retry is due).
    private func run() {
        var last: Frame?
        var behind = false
        var failing = false
        var scratch = [UInt8](repeating: 0, count: 64)
        while true {
            let (frame, backlight, closing) = mailbox.withLock { m in
                defer {
                    m.frame = nil
                    m.backlight = nil
                    m.busy = true
                }
                return (m.frame, m.backlight, m.closing)
            }
            do {
                if let backlight { try device.writeBacklight(backlight) }
                if let next = frame ?? (behind || periodMS != nil ? last : nil) {
                    last = next
                    try device.write(next)
                    mailbox.withLock { $0.written += 1 }
                }
                behind = !device.isCaughtUp
                if failing { logger.notice("\(name): writing again") }
                failing = false
            } catch {
                if !failing { logger.error("\(name): \(error); retrying") }
                failing = true
                behind = true
                mailbox.withLock { $0.error = "\(error)" }
            }
            if closing {
                device.finish()
                mailbox.withLock { $0.busy = false }
                return
            }
            let idle = mailbox.withLock { m -> Bool in
                m.busy = m.frame != nil || m.backlight != nil || m.closing
                return !m.busy
            }
            guard idle else { continue }
            var fds = [pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, behind ? Int32(retryMS) : periodMS.map { Int32($0) } ?? -1)
            _ = read(wake.readFD, &scratch, scratch.count)
        }
    }
}
