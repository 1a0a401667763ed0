/// One event as libevdev delivers it (`struct input_event`): kernel time, type, code, value.
public struct EvdevEvent: Hashable, Sendable, CustomStringConvertible {
    /// Seconds of the kernel timestamp (CLOCK_REALTIME unless the clock was changed).
    public var seconds: Int64
    /// Microseconds within `seconds`.
    public var microseconds: Int64
    public var type: UInt16
    public var code: UInt16
    public var value: Int32
    /// True for events libevdev synthesised while resynchronising after `SYN_DROPPED`.
    public var fromSync: Bool

    public init(seconds: Int64, microseconds: Int64, type: UInt16, code: UInt16, value: Int32, fromSync: Bool = false) {
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
        self.fromSync = fromSync
    }

    /// The timestamp in microseconds.
    public var timeMicroseconds: Int64 { seconds * 1_000_000 + microseconds }

    public var description: String {
        let usec = String(microseconds)
        let padded = String(repeating: "0", count: max(0, 6 - usec.count)) + usec
        return "\(seconds).\(padded) \(EvdevNames.type(type)) \(EvdevNames.code(type: type, code: code)) \(value)"
            + (fromSync ? " (sync)" : "")
    }
}

/// A device's bus, vendor, product and version numbers.
public struct EvdevID: Hashable, Sendable, CustomStringConvertible {
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16

    public init(bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
    }

    public var description: String {
        func hex(_ v: UInt16) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 4 - s.count) + s
        }
        return "bus 0x\(hex(bus)) vendor 0x\(hex(vendor)) product 0x\(hex(product)) version 0x\(hex(version))"
    }
}
