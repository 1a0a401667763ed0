import ClickWheelCore
import Devices
import Testing

/// `HD44780Writer`'s byte stream fed to `HD44780Model` (a model of the controller and the PCF8574,
/// not hardware): what the model's DDRAM and CGRAM end up showing.
@Suite struct HD44780Tests {
    private func setUp(
        _ geometry: DisplayGeometry, pins: PCF8574PinMap = .common, model: HD44780Model? = nil
    ) -> (HD44780Writer, HD44780Model) {
        let model = model ?? HD44780Model(pins: pins)
        let writer = HD44780Writer(
            sink: model, geometry: geometry, pins: pins, reinitSeconds: 300,
            now: { Timestamp(microseconds: model.now) }, sleep: { model.now += Int64($0) })
        return (writer, model)
    }

    private func frame(_ rows: [String], _ g: DisplayGeometry) -> Frame {
        var f = Frame(columns: g.columns, rows: g.rows)
        for (i, text) in rows.enumerated() { f.put(text, row: i, charset: .hd44780A00) }
        return f
    }

    private func padded(_ s: String, _ n: Int) -> String {
        String((s + String(repeating: " ", count: n)).prefix(n))
    }

    @Test(arguments: [PCF8574PinMap.common, .lcdproc])
    func initialisesFromPowerOnAndShowsEveryRowAtItsAddress(pins: PCF8574PinMap) throws {
        let g = DisplayGeometry(columns: 20, rows: 4)
        let (writer, model) = setUp(g, pins: pins)
        let rows = ["Music", "Artists  >", "Row three on 0x14", "Row four on 0x54"]
        try writer.draw(frame(rows, g))
        #expect(!model.eightBit && model.twoLines && model.displayOn && !model.cursorOn && !model.blinkOn)
        #expect(model.increment && model.backlight)
        for r in 0..<4 { #expect(model.text(row: r, columns: 20) == padded(rows[r], 20)) }
        #expect(Array(model.ddram[0x14..<0x14 + 9]) == Array("Row three".utf8), "row 3 continues row 1 at 0x14")
        #expect(model.violations.isEmpty, "no instruction while the controller was busy")
        let sizes = Set(model.transfers.map(\.count))
        #expect(sizes == [1, 2, 4], "idle byte, init nibbles, then every LCD byte as one 4-byte transfer")
    }

    @Test func sixteenByTwoAndTheA00Charset() throws {
        let g = DisplayGeometry(columns: 16, rows: 2)
        let (writer, model) = setUp(g)
        try writer.draw(frame(["Müller ° 10µs", "Café ~ back\\"], g))
        #expect(
            model.codes(row: 0, columns: 16).prefix(13) == [
                0x4D, 0xF5, 0x6C, 0x6C, 0x65, 0x72, 0x20, 0xDF, 0x20, 0x31, 0x30, 0xE4, 0x73,
            ])
        #expect(model.text(row: 1, columns: 16) == padded("Cafe - back/", 16), "no ¥ or → for \\ and ~")
    }

    @Test func glyphsGoToCGRAMAndARedefinedSlotIsRewritten() throws {
        let g = DisplayGeometry(columns: 16, rows: 2)
        let (writer, model) = setUp(g)
        var f = frame(["  Now Playing"], g)
        f.put(.play, row: 0, column: 0)
        f.put(.bar(3), row: 1, column: 0)
        f.put(.bar(3), row: 1, column: 1)
        try writer.draw(f)
        #expect(model.glyph(0) == Glyph.play.bitmap && model.glyph(1) == Glyph.bar(3).bitmap)
        #expect(model.codes(row: 0, columns: 16)[0] == 0 && model.codes(row: 1, columns: 16).prefix(2) == [1, 1])
        #expect(
            model.text(row: 0, columns: 16) == padded("⁰ Now Playing", 16), "text after CGRAM writes lands in DDRAM")
        var g2 = frame(["  Now Playing"], g)
        g2.put(.pause, row: 0, column: 0)
        g2.put(.bar(3), row: 1, column: 0)
        g2.put(.bar(3), row: 1, column: 1)
        try writer.draw(g2)
        #expect(model.glyph(0) == Glyph.pause.bitmap && model.glyph(1) == Glyph.bar(3).bitmap)
    }

    @Test func onlyChangedCellsAreWritten() throws {
        let g = DisplayGeometry(columns: 20, rows: 4)
        let (writer, model) = setUp(g)
        try writer.draw(frame(["Songs", "One", "Two", "Three"], g))
        let before = model.transfers.count
        try writer.draw(frame(["Songs", "One", "Tw!", "Three"], g))
        #expect(model.transfers.count == before + 2, "one DDRAM address, one character")
        #expect(model.text(row: 2, columns: 20) == padded("Tw!", 20))
        try writer.draw(frame(["Songs", "One", "Tw!", "Three"], g))
        #expect(model.transfers.count == before + 2, "an unchanged frame writes nothing")
    }

    @Test(arguments: ["8-bit", "4-bit", "half a byte"])
    func initResynchronisesAControllerInAnyState(state: String) throws {
        let g = DisplayGeometry(columns: 16, rows: 2)
        let model = HD44780Model()
        model.now = 100_000
        let encoder = HD44780Encoder()
        if state != "8-bit" { try model.write(encoder.nibble(0x2)) }
        if state == "half a byte" { try model.write(encoder.nibble(0x4)) }
        let (writer, _) = setUp(g, model: model)
        try writer.draw(frame(["Resynced", "from \(state)"], g))
        #expect(model.text(row: 0, columns: 16) == padded("Resynced", 16))
        #expect(model.text(row: 1, columns: 16) == padded("from \(state)", 16))
    }

    @Test func thePeriodicReinitHealsALostEdge() throws {
        let g = DisplayGeometry(columns: 16, rows: 2)
        let (writer, model) = setUp(g)
        try writer.draw(frame(["Playing", "0:01"], g))
        model.loseAnEdge()
        try writer.draw(frame(["Playing", "0:02"], g))
        #expect(model.text(row: 1, columns: 16) != padded("0:02", 16) || !model.displayOn, "the model garbles too")
        model.now += 301_000_000
        try writer.draw(frame(["Playing", "0:03"], g))
        #expect(model.displayOn && model.text(row: 0, columns: 16) == padded("Playing", 16))
        #expect(model.text(row: 1, columns: 16) == padded("0:03", 16))
    }

    @Test func aWriteErrorMakesTheNextDrawReinitialiseAndRedraw() throws {
        let g = DisplayGeometry(columns: 16, rows: 2)
        let (writer, model) = setUp(g)
        try writer.draw(frame(["Before"], g))
        model.failingWrites = 1
        #expect(throws: HD44780Model.BusError.self) { try writer.draw(frame(["After", "error"], g)) }
        model.loseAnEdge()
        try writer.draw(frame(["After", "error"], g))
        #expect(
            model.text(row: 0, columns: 16) == padded("After", 16)
                && model.text(row: 1, columns: 16) == padded("error", 16))
    }

    @Test func backlightIsOneExpanderByteWithTheBitOfThePinMap() throws {
        let g = DisplayGeometry(columns: 16, rows: 2)
        for pins in [PCF8574PinMap.common, .lcdproc] {
            let (writer, model) = setUp(g, pins: pins)
            try writer.draw(frame(["Light"], g))
            try writer.setBacklight(false)
            #expect(!model.backlight && model.transfers.last?.count == 1)
            try writer.setBacklight(true)
            #expect(model.backlight)
        }
        #expect(PCF8574PinMap("common") == .common && PCF8574PinMap("4,5,6,!7,0,1,2,3") == .lcdproc)
        #expect(PCF8574PinMap("0,1,2,3,4,5,6,6") == nil)
    }

    @Test func theDisplayWritesOnItsOwnThreadAndBlanksOnClose() throws {
        let g = DisplayGeometry(columns: 20, rows: 4)
        let model = HD44780Model()
        model.now = 100_000
        let display = try ThreadedDisplay(hd44780: model, geometry: g)
        for i in 0..<20 { try display.show(frame(["Frame \(i)"], g)) }
        #expect(display.flush())
        #expect(model.text(row: 0, columns: 20) == padded("Frame 19", 20), "the newest frame wins")
        display.close()
        #expect(model.text(row: 0, columns: 20) == padded("", 20) && !model.backlight)
    }
}

/// The Clock's big digits on an HD44780 (the model): its custom glyphs load into CGRAM and the cells
/// refer to their slots.
@Suite struct HD44780ClockTests {
    @Test func theBigClockLoadsItsGlyphsIntoCGRAM() throws {
        let g = DisplayGeometry(columns: 16, rows: 2)
        let model = HD44780Model(pins: .common)
        let writer = HD44780Writer(
            sink: model, geometry: g, pins: .common, reinitSeconds: 300,
            now: { Timestamp(microseconds: model.now) }, sleep: { model.now += Int64($0) })
        let renderer = LCDRenderer(geometry: g, charset: .hd44780A00)
        // 20:48, an alarm set: every glyph of the font and the bell.
        let time = LocalTime(localMS: 74_880_000)
        let frame = renderer.render(.clock(ClockView(time: time, twentyFour: true, nextAlarm: "07:00")), now: .zero)
        try writer.draw(frame)
        #expect(frame.glyphs.count == 7)
        for (slot, glyph) in frame.glyphs.enumerated() { #expect(model.glyph(slot) == glyph.bitmap, "slot \(slot)") }
        let codes = model.codes(row: 0, columns: 16) + model.codes(row: 1, columns: 16)
        // Four digits of 6 cells less the 4's two blank ones, the colon's 2, the bell.
        #expect(codes.filter { $0 < 8 }.count == 4 * 6 - 2 + 2 + 1, "the inked cells and the bell are CGRAM codes")
    }
}
