import ClickWheelCore
import Testing

@Suite struct BacklightTimerTests {
    @Test func goesDarkAfterTheTimeoutAndTheWakingInputIsSwallowed() {
        var t = BacklightTimer(timeoutSeconds: 10, now: .zero)
        #expect(t.tick(at: .ms(9_999)) == false)
        #expect(t.input(.wheel(steps: 1, at: .ms(5_000))) == .init(deliver: true, switchOn: false))
        #expect(t.tick(at: .ms(14_999)) == false)
        let off = t.tick(at: .ms(15_000))
        #expect(off && !t.isOn)
        #expect(t.tick(at: .ms(20_000)) == false, "reported once")
        #expect(t.input(.wheel(steps: 1, at: .ms(21_000))) == .init(deliver: false, switchOn: true))
        #expect(t.input(.wheel(steps: 1, at: .ms(21_050))) == .init(deliver: true, switchOn: false))
    }

    @Test func aButtonThatWakesTheDisplayIsSwallowedWithItsRelease() {
        var t = BacklightTimer(timeoutSeconds: 2, now: .zero)
        #expect(t.tick(at: .ms(2_000)) == true)
        #expect(t.input(.button(.select, .down, at: .ms(3_000))) == .init(deliver: false, switchOn: true))
        #expect(t.input(.button(.menu, .down, at: .ms(3_010))).deliver)
        #expect(t.input(.button(.select, .up, at: .ms(3_100))) == .init(deliver: false, switchOn: false))
        #expect(t.input(.button(.menu, .up, at: .ms(3_110))).deliver)
        #expect(t.input(.button(.select, .down, at: .ms(3_200))).deliver)
        #expect(t.input(.button(.select, .up, at: .ms(3_300))).deliver)
    }

    @Test func zeroKeepsTheLightOn() {
        var t = BacklightTimer(timeoutSeconds: 0, now: .zero)
        let off = t.tick(at: .ms(1_000_000))
        #expect(!off && t.isOn)
        t.setTimeout(seconds: 5)
        #expect(t.tick(at: .ms(1_000_000)) == true)
    }
}
