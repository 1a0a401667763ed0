/// The bytes a PCF8574 backpack gets to make an HD44780 (4-bit mode) do one thing. Pure.
///
/// A nibble is written as two expander bytes, E high then E low: the controller latches D4–D7 and
/// RS on E's falling edge. An LCD byte is its high nibble then its low nibble, four expander bytes,
/// sent as one I2C transfer. RW stays low (write) and the backlight bit is ORed into every byte.
public struct HD44780Encoder: Hashable, Sendable {
    public var pins: PCF8574PinMap
    public var backlight: Bool

    public init(pins: PCF8574PinMap = .common, backlight: Bool = true) {
        self.pins = pins
        self.backlight = backlight
    }

    /// The instructions (HD44780U datasheet, table 6).
    public enum Instruction {
        public static let clear: UInt8 = 0x01
        public static let home: UInt8 = 0x02
        /// Entry mode: cursor moves right (increment), no display shift.
        public static let entryIncrement: UInt8 = 0x06
        public static let displayOff: UInt8 = 0x08
        /// Display on, cursor and blink off.
        public static let displayOn: UInt8 = 0x0C
        /// Function set: 4-bit interface, 2 lines (also for 4-line displays), 5×8 dots.
        public static let fourBitTwoLines: UInt8 = 0x28
        public static func setCGRAM(_ address: UInt8) -> UInt8 { 0x40 | (address & 0x3F) }
        public static func setDDRAM(_ address: UInt8) -> UInt8 { 0x80 | (address & 0x7F) }
    }

    /// The expander byte with only the backlight (and nothing else) driven: E low, RS low.
    public var idle: UInt8 {
        backlight == pins.backlightActiveHigh ? UInt8(1) << pins.backlight : 0
    }

    /// The two expander bytes (E high, E low) that latch `nibble` (low 4 bits) with RS = `data`.
    public func nibble(_ nibble: UInt8, data: Bool = false) -> [UInt8] {
        var byte = idle
        for (i, pin) in pins.data.enumerated() where nibble & (1 << i) != 0 { byte |= 1 << pin }
        if data { byte |= 1 << pins.rs }
        return [byte | 1 << pins.enable, byte]
    }

    /// The four expander bytes of one LCD byte: an instruction (`data` false) or a character.
    public func byte(_ value: UInt8, data: Bool) -> [UInt8] {
        nibble(value >> 4, data: data) + nibble(value & 0x0F, data: data)
    }

    /// The DDRAM address of the first cell of each row: 0x00, 0x40, then `columns` and 0x40 + `columns`
    /// (20×4: 0x00 0x40 0x14 0x54; 16×4: 0x00 0x40 0x10 0x50).
    public static func rowStarts(columns: Int) -> [UInt8] {
        [0x00, 0x40, UInt8(columns), 0x40 + UInt8(columns)]
    }
}

/// Where a display's bytes go: one call is one transfer (an I2C `write()` of all of them).
public protocol ByteSink: AnyObject {
    func write(_ bytes: [UInt8]) throws
}
