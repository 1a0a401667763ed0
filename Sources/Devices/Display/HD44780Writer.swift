public import ClickWheelCore
import NamedThreads

/// Drives one HD44780 through a PCF8574 byte sink: 4-bit initialisation, CGRAM glyphs, changed cells.
///
/// `initialise` runs the datasheet's resynchronising sequence (nibbles 3, 3, 3, 2, whatever state a
/// lost E edge left the controller in), then function set, display off, clear, entry mode, display
/// on. `draw` loads the frame's glyphs into the CGRAM slots whose bitmap changed, then writes only
/// the runs of cells that differ from what the glass shows, each LCD byte as one 4-byte transfer.
/// After `reinitSeconds`, or after any write error, the next `draw` re-initialises and redraws all
/// (the cure for the garbling long runs show). Synchronous and not thread-safe: the `hd44780` `ThreadedDisplay`
/// calls it from its writer thread; tests call it directly.
public final class HD44780Writer {
    public let geometry: DisplayGeometry
    public let charset: TextCharset
    private let sink: any ByteSink
    private var encoder: HD44780Encoder
    private let rowStarts: [UInt8]
    private let reinitMS: Int64
    private let now: () -> Timestamp
    private let sleep: (_ microseconds: Int) -> Void
    private var shown: Frame?
    private var loaded: [Glyph?] = Array(repeating: nil, count: 8)
    private var lastInit: Timestamp?

    /// `sleep` waits the controller's execution times (init steps, clear); `now` times the re-init.
    public init(
        sink: any ByteSink, geometry: DisplayGeometry, pins: PCF8574PinMap = .common,
        charset: TextCharset = .hd44780A00, reinitSeconds: Int = 300,
        now: @escaping () -> Timestamp = MonotonicClock.now,
        sleep: @escaping (_ microseconds: Int) -> Void = HD44780Writer.systemSleep
    ) {
        precondition(
            geometry.rows <= 4 && geometry.columns <= 40 && geometry.rows * geometry.columns <= 80,
            "one HD44780 drives at most 80 cells (40x4 needs two controllers)")
        self.sink = sink
        self.geometry = geometry
        self.charset = charset
        encoder = HD44780Encoder(pins: pins)
        rowStarts = HD44780Encoder.rowStarts(columns: geometry.columns)
        reinitMS = Int64(reinitSeconds) * 1000
        self.now = now
        self.sleep = sleep
    }

    /// `usleep`, for real hardware.
    public static let systemSleep: @Sendable (Int) -> Void = { SystemSleep.microseconds($0) }

    /// Resynchronises and initialises the controller, forgetting what it showed (DDRAM and CGRAM).
    public func initialise() throws {
        shown = nil
        loaded = Array(repeating: nil, count: 8)
        lastInit = nil
        try sink.write([encoder.idle])
        sleep(50_000)
        for (nibble, wait) in [(UInt8(0x3), 4_500), (0x3, 150), (0x3, 150), (0x2, 150)] {
            try sink.write(encoder.nibble(nibble))
            sleep(wait)
        }
        typealias I = HD44780Encoder.Instruction
        try command(I.fourBitTwoLines)
        try command(I.displayOff)
        try command(I.clear)
        sleep(2_000)
        try command(I.entryIncrement)
        try command(I.displayOn)
        lastInit = now()
    }

    /// Shows `frame`: re-initialises first when due (or never done), then writes what changed.
    public func draw(_ frame: Frame) throws {
        precondition(frame.columns == geometry.columns && frame.rows == geometry.rows, "frame of another size")
        if lastInit.map({ now().milliseconds(since: $0) >= reinitMS }) ?? true { try initialise() }
        do {
            for (slot, glyph) in frame.glyphs.enumerated() where loaded[slot] != glyph {
                loaded[slot] = nil
                try command(HD44780Encoder.Instruction.setCGRAM(UInt8(slot) << 3))
                for row in glyph.bitmap { try data(row) }
                loaded[slot] = glyph
            }
            for run in frame.changes(from: shown) {
                try command(HD44780Encoder.Instruction.setDDRAM(rowStarts[run.row] + UInt8(run.column)))
                for cell in run.cells { try data(byte(for: cell)) }
            }
            shown = frame
        } catch {
            lastInit = nil
            throw error
        }
    }

    /// Switches the backlight: one expander byte with the new backlight bit.
    public func setBacklight(_ on: Bool) throws {
        encoder.backlight = on
        try sink.write([encoder.idle])
    }

    /// Clears the glass and switches the backlight off (on close).
    public func blank() throws {
        try command(HD44780Encoder.Instruction.clear)
        sleep(2_000)
        shown = nil
        try setBacklight(false)
    }

    /// The ROM code of a cell: a glyph's CGRAM slot, or the character in the display's charset.
    private func byte(for cell: Frame.Cell) -> UInt8 {
        switch cell {
        case .glyph(let slot): slot & 0x07
        case .char(let c): charset.bytes(for: c).first ?? 0x3F
        }
    }

    private func command(_ value: UInt8) throws {
        try sink.write(encoder.byte(value, data: false))
    }

    private func data(_ value: UInt8) throws {
        try sink.write(encoder.byte(value, data: true))
    }
}
