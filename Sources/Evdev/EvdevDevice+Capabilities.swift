import CEvdev

/// The range of an absolute axis (`struct input_absinfo`).
public struct EvdevAbsInfo: Hashable, Sendable {
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre (0 when unknown).
    public var resolution: Int32

    public init(value: Int32, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

extension EvdevDevice {
    /// True when the device reports events of `type` (`libevdev_has_event_type`).
    public func has(type: UInt16) -> Bool {
        libevdev_has_event_type(handleForExtensions, UInt32(type)) == 1
    }

    /// True when the device reports `code` of `type` (`libevdev_has_event_code`).
    public func has(type: UInt16, code: UInt16) -> Bool {
        libevdev_has_event_code(handleForExtensions, UInt32(type), UInt32(code)) == 1
    }

    /// The range of absolute axis `code` (`libevdev_get_abs_info`), nil when the device lacks it.
    public func absInfo(code: UInt16) -> EvdevAbsInfo? {
        guard has(type: 3, code: code), let info = libevdev_get_abs_info(handleForExtensions, UInt32(code)) else {
            return nil
        }
        let a = info.pointee
        return EvdevAbsInfo(
            value: a.value, minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz, flat: a.flat,
            resolution: a.resolution)
    }

    /// The number of multitouch slots (`libevdev_get_num_slots`), nil for single-touch devices.
    public var multitouchSlots: Int? {
        let n = libevdev_get_num_slots(handleForExtensions)
        return n > 0 ? Int(n) : nil
    }

    /// Every code of `type` the device reports, in order (codes 0…`max`).
    public func codes(type: UInt16, upTo max: UInt16) -> [UInt16] {
        (0...max).filter { has(type: type, code: $0) }
    }
}

/// The kernel names of event types and codes (`libevdev_event_type_get_name`,
/// `libevdev_event_code_get_name`), for logs and the input debugger. Any thread.
public enum EvdevNames {
    /// "EV_REL" for 2; the number for unknown types.
    public static func type(_ type: UInt16) -> String {
        libevdev_event_type_get_name(UInt32(type)).map { String(cString: $0) } ?? String(type)
    }

    /// "REL_X" for (2, 0); the number for unknown codes.
    public static func code(type: UInt16, code: UInt16) -> String {
        libevdev_event_code_get_name(UInt32(type), UInt32(code)).map { String(cString: $0) } ?? String(code)
    }
}
