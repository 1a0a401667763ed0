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
