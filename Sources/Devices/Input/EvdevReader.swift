public import ClickWheelCore
public import Evdev
import Glibc
import NamedThreads

/// Reads one evdev device on its own thread and delivers what its decoder makes of the events.
///
/// The thread polls the device and a wake pipe; it drains every queued event (`EvdevDevice.nextEvent`,
/// which resynchronises after `SYN_DROPPED`), stamps it on the monotonic clock, feeds the profile's
/// `WheelDecoder` and calls the sink with each wheel step and button edge. When the device goes away
/// (ENODEV) the thread closes it and reports through `onGone`, then ends. `start`/`stop` come from
/// the thread that owns `EvdevInput`'s table; the sink, `observer` and `onGone` run on the reader thread.
/// `@unchecked Sendable`: the device and decoder belong to the reader thread while it runs; `start` and `stop` touch them only before it starts and after it is joined.
final class EvdevReader: @unchecked Sendable {
    let path: String
    let name: String
    /// The node's device number (`st_rdev`), which identifies it behind links.
    let deviceNumber: UInt64
    private var device: EvdevDevice?
    private var decoder: WheelDecoder
    private var wheelKeys: [UInt16: Int]
    private let capabilities: EvdevCapabilities
    private let rawTap: EvdevRawTap
    private let pendingProfile = EvdevPendingProfile()
    private let sink: @Sendable (InputEvent) -> Void
    private let observer: (@Sendable (EvdevObservation) -> Void)?
    private let onGone: @Sendable (EvdevReader, EvdevError) -> Void
    private let wake: WakePipe
    private var thread: NamedThread?
    /// Added to kernel times to put them on the monotonic clock (0 when the kernel already uses it).
    private var offset: Int64?

    init(
        device: EvdevDevice, deviceNumber: UInt64, capabilities: EvdevCapabilities, profile: EvdevProfile,
        sink: @escaping @Sendable (InputEvent) -> Void, observer: (@Sendable (EvdevObservation) -> Void)?,
        rawTap: EvdevRawTap, onGone: @escaping @Sendable (EvdevReader, EvdevError) -> Void
    ) throws(SystemCallError) {
        path = device.path
        name = device.name
        self.deviceNumber = deviceNumber
        self.device = device
        self.capabilities = capabilities
        self.rawTap = rawTap
        decoder = capabilities.decoder(profile: profile)
        wheelKeys = profile.wheelKeys
        self.sink = sink
        self.observer = observer
        self.onGone = onGone
        wake = try WakePipe()
        // Kernel times on CLOCK_MONOTONIC match the engine's ticks; umockdev cannot, so we map instead.
        offset = device.useMonotonicClock() ? 0 : nil
    }

    /// Decodes with `profile` from the next event on (any thread; the grab stays as it is).
    func apply(_ profile: EvdevProfile) {
        pendingProfile.put(profile)
    }

    /// Starts the reader thread.
    func start() throws(SystemCallError) {
        thread = try NamedThread.loop("evdev " + (path.split(separator: "/").last.map(String.init) ?? path)) {
            [self] in run()
        }
    }

    /// Ends the thread and waits for it (not from the reader thread itself).
    func stop() {
        wake.signal()
        precondition(thread?.isCurrent != true, "a reader cannot join itself")
        thread?.join()
    }

    private func run() {
        guard let device else { return }
        while true {
            var fds = [
                pollfd(fd: device.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return finish(EvdevError(call: "poll", path: path, errno: errno))
            }
            if fds[1].revents != 0 { return close() }
            guard fds[0].revents != 0 else { continue }
            do {
                var count = 0
                while let event = try device.nextEvent() {
                    count += 1
                    handle(event)
                }
                let broken = Int16(POLLERR | POLLHUP | POLLNVAL)
                if count == 0 && fds[0].revents & broken != 0 {
                    return finish(EvdevError(call: "poll", path: path, errno: ENODEV))
                }
            } catch {
                return finish(error)
            }
        }
    }

    private func handle(_ event: EvdevEvent) {
        let kernel = event.timeMicroseconds
        let nowUS = MonotonicClock.now().microseconds
        if offset == nil { offset = nowUS - kernel }
        // An event is never from the future: when one would be (a device that took EVIOCSCLOCKID but
        // stamps another clock, or a first event that waited in a buffer before we opened the device, as
        // umockdev's replay delivers them), the mapping moves back. An engine fed times ahead of its
        // ticks would stall its timers until the clock caught up.
        if kernel + (offset ?? 0) > nowUS { offset = nowUS - kernel }
        let time = Timestamp(microseconds: kernel + (offset ?? 0))
        let raw = RawInputEvent(time: time, type: event.type, code: event.code, value: event.value)
        if let profile = pendingProfile.take() {
            decoder = capabilities.decoder(profile: profile)
            wheelKeys = profile.wheelKeys
        }
        // Before the decoded input, so a listener sees the raw event first (Settings → Wheel relies on it).
        rawTap.forward(raw, from: path)
        var out: [InputEvent] = []
        if event.type == EvdevCode.evKey, let steps = wheelKeys[event.code] {
            if event.value != 0 { out.append(.wheel(steps: steps, at: time)) }
        } else {
            out = decoder.feed(raw)
        }
        observer?(EvdevObservation(path: path, event: event, time: time, decoded: out))
        for e in out { sink(e) }
    }

    private func close() {
        device = nil
    }

    private func finish(_ error: EvdevError) {
        device = nil
        onGone(self, error)
    }
}

/// One raw event as a reader saw it, with what it decoded to: for the input debugger and tests.
public struct EvdevObservation: Hashable, Sendable {
    /// The device node.
    public var path: String
    public var event: EvdevEvent
    /// The event's time on the monotonic clock (as delivered to the sink).
    public var time: Timestamp
    /// The wheel steps and button edges it completed.
    public var decoded: [InputEvent]

    public init(path: String, event: EvdevEvent, time: Timestamp, decoded: [InputEvent]) {
        self.path = path
        self.event = event
        self.time = time
        self.decoded = decoded
    }
}
