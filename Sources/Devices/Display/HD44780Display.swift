public import ClickWheelCore
import Glibc
import I2C
public import Logging

/// The `hd44780` display: an HD44780 behind a PCF8574 I2C backpack, written on its own thread.
///
/// A `ThreadedDisplay` over an `HD44780Writer` (init, CGRAM glyphs, changed cells, periodic re-init): a
/// full 20×4 redraw takes tens of milliseconds of I2C at 100 kHz, which the engine loop never waits
/// for; it initialises with the first frame. A write error is logged once, reported by the next `show`, and healed by re-initialising on
/// the next attempt (every second); the latest frame is written again every second so the periodic
/// re-initialisation happens on a still screen too. `close` blanks the glass and switches the
/// backlight off.
extension ThreadedDisplay {
    /// Drives the display through `sink`; the writer thread initialises it at once.
    public convenience init(
        hd44780 sink: any ByteSink, geometry: DisplayGeometry, pins: PCF8574PinMap = .common,
        charset: TextCharset = .hd44780A00, reinitSeconds: Int = 300,
        logger: Logger = Logger(label: "clickwheel.hd44780")
    ) throws {
        let writer = HD44780Writer(
            sink: sink, geometry: geometry, pins: pins, charset: charset, reinitSeconds: reinitSeconds)
        try self.init(writer, name: "hd44780", retryMS: 1000, periodMS: 1000, logger: logger)
    }

    /// Opens `bus` (e.g. /dev/i2c-1) at `address` (0x27 or 0x3F) and drives the display there.
    public convenience init(
        hd44780Bus bus: String, address: Int = 0x27, geometry: DisplayGeometry, pins: PCF8574PinMap = .common,
        reinitSeconds: Int = 300, logger: Logger = Logger(label: "clickwheel.hd44780")
    ) throws {
        try self.init(
            hd44780: I2CByteSink(bus: bus, address: address), geometry: geometry, pins: pins,
            reinitSeconds: reinitSeconds, logger: logger)
    }
}

/// The writer is the display's device: `draw` initialises first when needed (and after an error).
extension HD44780Writer: DisplayDevice {
    public func write(_ frame: Frame) throws { try draw(frame) }
    public func writeBacklight(_ on: Bool) throws { try setBacklight(on) }
    public var isCaughtUp: Bool { true }
    public func finish() { try? blank() }
}

/// The real bus: an `I2CDevice` (/dev/i2c-N, `I2C_SLAVE`), one `write()` per transfer.
public final class I2CByteSink: ByteSink {
    private let device: I2CDevice

    /// Opens `bus` and addresses the backpack at `address`.
    public init(bus: String, address: Int) throws {
        device = try I2CDevice(path: bus, address: address)
    }

    public func write(_ bytes: [UInt8]) throws {
        try device.write(bytes)
    }
}
