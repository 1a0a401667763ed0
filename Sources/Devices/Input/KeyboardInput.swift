public import ClickWheelCore
import Glibc
import NamedThreads

/// The `keyboard` input: raw-mode standard input read on a dedicated thread, decoded by
/// `KeyboardDecoder` into evdev-like events (REL_X ±1 for the wheel, the gpio-key codes for the
/// buttons) that go through the same `WheelDecoder` as the hardware's. A held key (h + key, or Shift) goes down
/// at once and comes up `holdMS` later, so the engine's gesture rules decide click or hold exactly
/// as for hardware buttons.
///
/// Thread rules: `start`/`stop` from the service's start-up and shutdown; the sink and `onQuit` run on the reader thread.
/// `@unchecked Sendable`: the wake pipe and thread handle change only in `start` and `stop`, on the owner's thread, with the reader joined between them; the reader thread uses its own `Reader`.
public final class KeyboardInput: InputSource, @unchecked Sendable {
    private let fd: Int32
    private let holdMS: Int64
    private let onQuit: @Sendable () -> Void
    private var wakePipe: (read: Int32, write: Int32) = (-1, -1)
    private var thread: NamedThread?

    /// Reads `fd` (standard input by default), holding buttons `holdMS` for a hold; `onQuit` runs on q,
    /// Ctrl-D or end of input.
    public init(fd: Int32 = 0, holdMS: Int64 = 1000, onQuit: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.holdMS = holdMS
        self.onQuit = onQuit
    }

    public func start(_ sink: @escaping @Sendable (InputEvent) -> Void) throws {
        precondition(thread == nil, "keyboard input started twice")
        if isatty(fd) == 1 { try TerminalGuard.enterRawMode(fd: fd) }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TerminalGuard.Error(call: "pipe", errno: errno) }
        wakePipe = (fds[0], fds[1])
        let reader = Reader(fd: fd, wake: fds[0], holdMS: holdMS, sink: sink, onQuit: onQuit)
        do {
            thread = try NamedThread.loop("keyboard") { reader.run() }
        } catch {
            close(fds[0])
            close(fds[1])
            wakePipe = (-1, -1)
            throw TerminalGuard.Error(call: "pthread_create", errno: error.errno)
        }
    }

    public func stop() {
        guard let thread else { return }
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
        thread.join()
        self.thread = nil
        close(wakePipe.read)
        close(wakePipe.write)
        TerminalGuard.restore()
    }

    deinit { stop() }
}

/// The reader thread's loop: poll standard input and the wake pipe, decode, deliver.
/// `@unchecked Sendable`: handed to the reader thread at start and used by it alone.
private final class Reader: @unchecked Sendable {
    let fd: Int32
    let wake: Int32
    let holdMS: Int64
    let sink: @Sendable (InputEvent) -> Void
    let onQuit: @Sendable () -> Void
    var decoder = KeyboardDecoder()
    var wheel = WheelDecoder(rotary: RotaryDecoder(axis: EvdevCode.relX, stepsPerDetent: 1))
    static let codes: [Button: UInt16] = Dictionary(uniqueKeysWithValues: EvdevCode.defaultButtons.map { ($1, $0) })
    var pendingRelease: (button: Button, at: Timestamp)?

    init(
        fd: Int32, wake: Int32, holdMS: Int64, sink: @escaping @Sendable (InputEvent) -> Void,
        onQuit: @escaping @Sendable () -> Void
    ) {
        self.fd = fd
        self.wake = wake
        self.holdMS = holdMS
        self.sink = sink
        self.onQuit = onQuit
    }

    func run() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            var fds = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            var timeout: Int32 = -1
            if let pending = pendingRelease {
                timeout = Int32(max(0, pending.at.milliseconds(since: MonotonicClock.now())))
            }
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR { return }
            releaseIfDue(force: false)
            if fds[1].revents != 0 {
                releaseIfDue(force: true)
                return
            }
            guard fds[0].revents != 0 else { continue }
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 {
                if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                releaseIfDue(force: true)
                onQuit()
                return
            }
            for key in KeyboardDecoder.coalesced(decoder.feed(Array(buffer[0..<n]))) { deliver(key) }
        }
    }

    private func deliver(_ key: KeyboardDecoder.Key) {
        let now = MonotonicClock.now()
        switch key {
        case .wheel(let steps):
            emit(type: EvdevCode.evRel, code: EvdevCode.relX, value: Int32(steps), at: now)
        case .click(let b):
            releaseIfDue(force: true)
            emit(button: b, down: true, at: now)
            emit(button: b, down: false, at: now)
        case .hold(let b):
            releaseIfDue(force: true)
            emit(button: b, down: true, at: now)
            pendingRelease = (b, now.adding(ms: holdMS))
        case .quit:
            onQuit()
        }
    }

    private func emit(button: Button, down: Bool, at time: Timestamp) {
        guard let code = Self.codes[button] else { return }
        emit(type: EvdevCode.evKey, code: code, value: down ? 1 : 0, at: time)
    }

    /// Feeds one event and its SYN_REPORT through the wheel decoder and delivers what comes out.
    private func emit(type: UInt16, code: UInt16, value: Int32, at time: Timestamp) {
        let events = [
            RawInputEvent(time: time, type: type, code: code, value: value),
            RawInputEvent(time: time, type: EvdevCode.evSyn, code: EvdevCode.synReport, value: 0),
        ]
        for event in wheel.feed(events) { sink(event) }
    }

    private func releaseIfDue(force: Bool) {
        guard let pending = pendingRelease else { return }
        let now = MonotonicClock.now()
        guard force || now >= pending.at else { return }
        pendingRelease = nil
        emit(button: pending.button, down: false, at: max(now, pending.at))
    }
}
