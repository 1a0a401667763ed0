import Devices

/// A model of an HD44780 controller behind a PCF8574 expander — for tests only, not hardware.
///
/// It decodes each expander byte with the backpack's pin map and latches D4–D7 and RS on E's falling
/// edge, like the chip. After power-on it is in 8-bit mode (DB0–DB3 have pull-ups, so a lone nibble
/// n arrives as the byte n·16+0xF); function set switches to 4-bit mode, where nibbles pair high
/// then low — so a lost edge leaves it out of phase until the 3, 3, 3, 2 sequence resynchronises it.
/// It keeps DDRAM (2-line addressing: 0x00–0x27 and 0x40–0x67), CGRAM (8 glyphs × 8 rows), the
/// address counter with entry mode, display control, the backlight pin, and a microsecond clock
/// (90 µs per I2C byte at 100 kHz, plus the driver's sleeps) to flag instructions sent while busy.
final class HD44780Model: ByteSink, @unchecked Sendable {
    let pins: PCF8574PinMap
    private(set) var ddram = [UInt8](repeating: 0x20, count: 128)
    private(set) var cgram = [UInt8](repeating: 0, count: 64)
    private(set) var eightBit = true
    private(set) var twoLines = false
    private(set) var increment = true
    private(set) var displayOn = false
    private(set) var cursorOn = true
    private(set) var blinkOn = true
    private(set) var backlight = false
    /// Every transfer (one `write`), in order.
    private(set) var transfers: [[UInt8]] = []
    /// Instructions sent while the controller was still busy with the previous one.
    private(set) var violations: [String] = []
    /// Microseconds since power-on.
    var now: Int64 = 0
    /// Makes the next `count` writes fail, like a NACK on the bus.
    var failingWrites = 0

    private var address: UInt8 = 0
    private var inCGRAM = false
    private var pendingHigh: UInt8?
    private var lastE = false
    private var busyUntil: Int64 = 40_000

    struct BusError: Error {}

    init(pins: PCF8574PinMap = .common) {
        self.pins = pins
    }

    func write(_ bytes: [UInt8]) throws {
        if failingWrites > 0 {
            failingWrites -= 1
            throw BusError()
        }
        transfers.append(bytes)
        for byte in bytes {
            now += 90
            pin(byte)
        }
    }

    /// The expander's outputs change to `byte`.
    func pin(_ byte: UInt8) {
        func bit(_ p: Int) -> Bool { byte & (1 << p) != 0 }
        backlight = bit(pins.backlight) == pins.backlightActiveHigh
        let e = bit(pins.enable)
        if lastE && !e && !bit(pins.rw) {
            var nibble: UInt8 = 0
            for (i, p) in pins.data.enumerated() where bit(p) { nibble |= 1 << i }
            latch(nibble, rs: bit(pins.rs))
        }
        lastE = e
    }

    private func latch(_ nibble: UInt8, rs: Bool) {
        if eightBit {
            execute(nibble << 4 | 0x0F, rs: rs)
        } else if let high = pendingHigh {
            pendingHigh = nil
            execute(high << 4 | nibble, rs: rs)
        } else {
            pendingHigh = nibble
        }
    }

    private func execute(_ value: UInt8, rs: Bool) {
        if now < busyUntil {
            violations.append(
                "0x\(String(value, radix: 16)) \(rs ? "data" : "instruction") \(busyUntil - now) µs early")
        }
        busyUntil = now + 37
        if rs { return writeData(value) }
        switch value {
        case 0x80...: (address, inCGRAM) = (value & 0x7F, false)
        case 0x40...: (address, inCGRAM) = (value & 0x3F, true)
        case 0x20...:
            eightBit = value & 0x10 != 0
            twoLines = value & 0x08 != 0
        case 0x10...: break
        case 0x08...: (displayOn, cursorOn, blinkOn) = (value & 4 != 0, value & 2 != 0, value & 1 != 0)
        case 0x04...: increment = value & 2 != 0
        case 0x02...:
            (address, inCGRAM) = (0, false)
            busyUntil = now + 1520
        case 0x01:
            ddram = [UInt8](repeating: 0x20, count: 128)
            (address, inCGRAM, increment) = (0, false, true)
            busyUntil = now + 1520
        default: break
        }
    }

    private func writeData(_ value: UInt8) {
        if inCGRAM {
            cgram[Int(address)] = value & 0x1F
            address = (increment ? address &+ 1 : address &- 1) & 0x3F
            return
        }
        ddram[Int(address)] = value
        if increment {
            address = twoLines ? (address == 0x27 ? 0x40 : address == 0x67 ? 0x00 : address + 1) : (address + 1) % 0x50
        } else {
            address =
                twoLines ? (address == 0x40 ? 0x27 : address == 0x00 ? 0x67 : address - 1) : (address + 0x4F) % 0x50
        }
    }

    /// The ROM codes row `row` of a `columns`-wide display shows.
    func codes(row: Int, columns: Int) -> [UInt8] {
        let start = Int(HD44780Encoder.rowStarts(columns: columns)[row])
        return Array(ddram[start..<start + columns])
    }

    /// Row `row` as text: ASCII as itself, CGRAM codes 0–15 as "⁰…⁷", other ROM codes as "¿".
    func text(row: Int, columns: Int) -> String {
        String(
            codes(row: row, columns: columns).map { c -> Character in
                if c < 0x10 { return ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷"][Int(c & 7)] }
                if c >= 0x20 && c < 0x7F { return Character(Unicode.Scalar(c)) }
                return "¿"
            })
    }

    /// The 8 rows of CGRAM slot `slot`.
    func glyph(_ slot: Int) -> [UInt8] { Array(cgram[slot * 8..<slot * 8 + 8]) }

    /// A lost E edge: one stray nibble latched (what noise on a long cable does).
    func loseAnEdge() { latch(0x0, rs: false) }
}
