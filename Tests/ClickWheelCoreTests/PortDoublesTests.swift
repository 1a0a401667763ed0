import ClickWheelCore
import ClickWheelTestKit
import Synchronization
import Testing

@Suite struct PortDoublesTests {
    @Test func scriptedInputThroughTheEngineOntoARecordingA00Display() throws {
        let geometry = DisplayGeometry(columns: 16, rows: 2)
        let display = RecordingDisplay(geometry: geometry, charset: .hd44780A00)
        var engine = Engine(
            library: Fixtures.sample(), configuration: EngineConfiguration(geometry: geometry, charset: .hd44780A00))
        let received = Mutex<[InputEvent]>([])
        let input = ScriptedInput([
            .button(.select, .down, at: .ms(10)), .button(.select, .up, at: .ms(60)), .wheel(steps: 1, at: .ms(400)),
            .button(.select, .down, at: .ms(500)), .button(.select, .up, at: .ms(550)),
        ])
        try input.start { e in received.withLock { $0.append(e) } }
        for event in received.withLock({ $0 }) {
            for case .render(let frame) in engine.handle(.input(event)) { try display.show(frame) }
        }
        #expect(display.lines == ["Artists     1/45", ">a-ha          →"])
        // The first write is the whole screen, → as the A00 ROM's 0x7E; the last only the changed cells
        // (the arrow column was already there).
        #expect(display.writes.first?.contains(0x7E) == true)
        #expect(display.writes.last?.contains(0x7E) == false)
        #expect(display.writes.last!.count < 32)
        #expect(display.writes.last!.contains(Array("a-ha".utf8)))
    }
}
