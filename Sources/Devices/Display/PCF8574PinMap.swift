/// Which PCF8574 output (P0…P7) drives which HD44780 line on an I2C backpack.
///
/// Backpacks differ: the common LCM1602/FC-113 board (and the kernel's hd44780-i2c overlay) puts RS,
/// RW, E and the backlight on P0–P3 and D4–D7 on P4–P7; lcdproc's `i2c` default is the other way
/// round with an active-low backlight. Plain data; `HD44780Encoder` builds expander bytes from it.
public struct PCF8574PinMap: Hashable, Sendable {
    public var rs: Int
    public var rw: Int
    public var enable: Int
    public var backlight: Int
    /// D4, D5, D6, D7 in that order.
    public var data: [Int]
    /// True when a 1 on the backlight pin lights it (most boards); false for an inverted transistor.
    public var backlightActiveHigh: Bool

    public init(rs: Int, rw: Int, enable: Int, backlight: Int, data: [Int], backlightActiveHigh: Bool = true) {
        let pins = [rs, rw, enable, backlight] + data
        precondition(
            data.count == 4 && pins.allSatisfy { (0...7).contains($0) } && Set(pins).count == 8,
            "a pin map uses each of P0…P7 once")
        self.rs = rs
        self.rw = rw
        self.enable = enable
        self.backlight = backlight
        self.data = data
        self.backlightActiveHigh = backlightActiveHigh
    }

    /// The common backpack: P0 RS, P1 RW, P2 E, P3 backlight, P4–P7 D4–D7 (RPLCD, the kernel overlay).
    public static let common = PCF8574PinMap(rs: 0, rw: 1, enable: 2, backlight: 3, data: [4, 5, 6, 7])

    /// lcdproc's hd44780-i2c default: P0–P3 D4–D7, P4 RS, P5 RW, P6 E, P7 backlight (active low).
    public static let lcdproc = PCF8574PinMap(
        rs: 4, rw: 5, enable: 6, backlight: 7, data: [0, 1, 2, 3], backlightActiveHigh: false)

    /// Reads "common", "lcdproc" or eight comma-separated pin numbers "rs,rw,e,bl,d4,d5,d6,d7"
    /// (a leading "!" on bl for an active-low backlight); nil when malformed.
    public init?(_ text: String) {
        switch text {
        case "common": self = .common
        case "lcdproc": self = .lcdproc
        default:
            let parts = text.split(separator: ",").map { $0.trimmingPrefix(" ") }
            guard parts.count == 8 else { return nil }
            let activeLow = parts[3].hasPrefix("!")
            let numbers = parts.enumerated().compactMap { i, p in Int(i == 3 && activeLow ? p.dropFirst() : p) }
            guard numbers.count == 8, numbers.allSatisfy({ (0...7).contains($0) }), Set(numbers).count == 8 else {
                return nil
            }
            self.init(
                rs: numbers[0], rw: numbers[1], enable: numbers[2], backlight: numbers[3],
                data: Array(numbers[4...]), backlightActiveHigh: !activeLow)
        }
    }
}
