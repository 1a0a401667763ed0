import ClickWheelCore
import Evdev
import Logging
import Synchronization

/// The `clickwheel debug input [DEVICE]` harness: describes the input devices, then prints every raw
/// event, what the decoder made of it, and the gestures (click, hold, repeat) that result — live.
///
/// Reads through the same `EvdevInput` as the service (same discovery, profiles and grab), so what it
/// prints is what the engine would get. `start`/`stop`/`tick` from the harness's thread (`tick` every
/// ~100 ms reports holds while a button is still down); `print` is called from reader threads too,
/// one whole line at a time.
public final class InputDebugger: Sendable {
    private let input: EvdevInput
    private let print: @Sendable (String) -> Void
    private let gestures = GestureState()
    private let showSync: Bool

    /// Reads the devices of `configuration`; `showSync` also prints the SYN_REPORT lines.
    public init(
        configuration: EvdevInput.Configuration, showSync: Bool = false,
        print: @escaping @Sendable (String) -> Void
    ) {
        self.print = print
        self.showSync = showSync
        let gestures = self.gestures
        input = EvdevInput(
            configuration: configuration, logger: Logger(label: "clickwheel.debug-input"),
            observer: { observation in
                if !showSync && observation.event.type == 0 && observation.event.code == 0 { return }
                print(Self.line(for: observation))
                for e in observation.decoded {
                    guard case .button(let b, let phase, let t) = e else { continue }
                    for g in gestures.state.withLock({ $0.feed(b, phase, at: t) }) {
                        print("  gesture: \(Self.words(g))")
                    }
                }
            })
    }

    /// One line per device node of `directory` (or the given paths): name, ids and what it is good for.
    public static func describe(paths: [String], profiles: [EvdevProfile] = []) -> [String] {
        paths.map { path in
            do {
                let device = try EvdevDevice(path: path)
                let profile = EvdevProfile.pick(from: profiles, path: path, deviceNumber: nil, name: device.name)
                let caps = EvdevCapabilities(device: device, profile: profile)
                return "\(path): \"\(device.name)\" phys \(device.phys ?? "-") \(device.id): \(caps)"
            } catch {
                return "\(path): \(error)"
            }
        }
    }

    /// The event nodes in `directory`, as paths (for `describe`).
    public static func nodes(in directory: String = "/dev/input") -> [String] {
        EvdevInput.eventNodes(in: directory).map { directory + "/" + $0 }
    }

    /// Starts reading; prints which devices are open.
    public func start() throws {
        try input.start { _ in }
        print(
            input.openDevices.isEmpty
                ? "no usable input device yet; waiting" : "reading " + input.openDevices.joined(separator: ", "))
    }

    /// Reports holds and repeats that came due while buttons are down.
    public func tick() {
        for g in gestures.state.withLock({ $0.tick(at: MonotonicClock.now()) }) { print("  gesture: \(Self.words(g))") }
    }

    public func stop() {
        input.stop()
    }

    /// "event0  100.040000  EV_REL REL_X 1  → wheel +1".
    public static func line(for o: EvdevObservation) -> String {
        let node = o.path.split(separator: "/").last.map(String.init) ?? o.path
        var text = "\(node)  \(o.event)"
        if !o.decoded.isEmpty { text += "  → " + o.decoded.map(words).joined(separator: ", ") }
        return text
    }

    /// The kernel name of an event code, e.g. "KEY_ENTER" for (1, 28) (for `clickwheel calibrate`).
    public static func codeName(type: UInt16, code: UInt16) -> String { EvdevNames.code(type: type, code: code) }

    static func words(_ e: InputEvent) -> String {
        switch e {
        case .wheel(let steps, _): "wheel \(steps > 0 ? "+" : "")\(steps)"
        case .button(let b, let phase, _): "\(b) \(phase)"
        }
    }

    static func words(_ g: ButtonGestures.Gesture) -> String {
        switch g {
        case .click(let b): "click \(b)"
        case .hold(let b): "hold \(b)"
        case .repeatHold(let b, let n): "repeat \(b) #\(n)"
        case .released(let b): "release \(b)"
        }
    }
}

/// The debugger's gesture recogniser, shared by the reader threads.
private final class GestureState: Sendable {
    let state = Mutex(ButtonGestures())
}
