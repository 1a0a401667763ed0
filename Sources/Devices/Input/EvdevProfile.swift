public import ClickWheelCore

/// How one input device is read: which device it applies to, its wheel geometry and its key map.
///
/// Several profiles may be configured (an encoder, a button board, a remote); the first whose
/// `match` fits a device is used for it, `EvdevProfile()` otherwise. Plain data, any thread.
public struct EvdevProfile: Hashable, Sendable {
    /// Which devices a profile (or the `only` list of `EvdevInput.Configuration`) means.
    public enum Match: Hashable, Sendable {
        /// Every device.
        case any
        /// The node, e.g. `/dev/input/event3` or a udev link such as `/dev/input/clickwheel-wheel`.
        case path(String)
        /// The kernel name (`EVIOCGNAME`), e.g. `rotary@11` or `gpio_keys`.
        case name(String)

        /// True when a device at `path` with device number `deviceNumber` named `name` fits; a path
        /// fits when it is the same node or a link to it (same `st_rdev`).
        public func fits(path: String, deviceNumber: UInt64?, name: String) -> Bool {
            switch self {
            case .any: return true
            case .path(let p):
                return p == path || (deviceNumber != nil && EvdevInput.deviceNumber(p) == deviceNumber)
            case .name(let n): return n == name
            }
        }
    }

    public var match: Match
    /// Rotary encoder events per detent: 1, 2 or 4.
    public var stepsPerDetent: Int
    /// Reverse the wheel (encoder and touch ring).
    public var inverted: Bool
    /// Touch ring: degrees of finger travel per step.
    public var degreesPerStep: Double
    /// Touch ring: radius of the centre (Select) disc as a fraction of the ring.
    public var deadZone: Double
    /// EV_KEY codes that are click-wheel buttons.
    public var buttons: [UInt16: Button]
    /// EV_KEY codes that turn the wheel (arrows on a keyboard or remote): steps per press or repeat.
    public var wheelKeys: [UInt16: Int]
    /// Take the device exclusively (EVIOCGRAB), so the console and logind do not also act on it.
    public var grab: Bool
    /// Touch ring: its centre and radius in device units (calibrated); nil: the pad's middle, filling it.
    public var touchRing: TouchRingDecoder.Ring?

    public init(
        match: Match = .any, stepsPerDetent: Int = 1, inverted: Bool = false, degreesPerStep: Double = 15,
        deadZone: Double = 0.35, buttons: [UInt16: Button] = EvdevProfile.defaultButtons,
        wheelKeys: [UInt16: Int] = EvdevProfile.defaultWheelKeys, grab: Bool = true,
        touchRing: TouchRingDecoder.Ring? = nil
    ) {
        precondition([1, 2, 4].contains(stepsPerDetent), "steps per detent must be 1, 2 or 4")
        precondition(degreesPerStep > 0, "degrees per step must be positive")
        self.match = match
        self.stepsPerDetent = stepsPerDetent
        self.inverted = inverted
        self.degreesPerStep = degreesPerStep
        self.deadZone = deadZone
        self.buttons = buttons
        self.wheelKeys = wheelKeys
        self.grab = grab
        self.touchRing = touchRing
    }

    /// KEY_ENTER Select, KEY_ESC and KEY_MENU Menu, the media keys, KEY_LEFT/KEY_RIGHT Previous/Next.
    public static let defaultButtons: [UInt16: Button] = EvdevCode.defaultButtons.merging(
        [KeyCode.esc: .menu, KeyCode.left: .previous, KeyCode.right: .next], uniquingKeysWith: { a, _ in a })

    /// KEY_UP one step up the list, KEY_DOWN one step down.
    public static let defaultWheelKeys: [UInt16: Int] = [KeyCode.up: -1, KeyCode.down: 1]

    /// The profile of the first of `profiles` that fits, or the default profile.
    public static func pick(
        from profiles: [EvdevProfile], path: String, deviceNumber: UInt64?, name: String
    ) -> EvdevProfile {
        profiles.first { $0.match.fits(path: path, deviceNumber: deviceNumber, name: name) } ?? EvdevProfile()
    }
}

/// Key codes (linux/input-event-codes.h) beyond those the core names.
public enum KeyCode {
    public static let esc: UInt16 = 1
    public static let up: UInt16 = 103
    public static let left: UInt16 = 105
    public static let right: UInt16 = 106
    public static let down: UInt16 = 108
    public static let power: UInt16 = 116
    public static let btnLeft: UInt16 = 0x110
}
