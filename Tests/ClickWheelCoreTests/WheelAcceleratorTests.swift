import ClickWheelCore
import Testing

@Suite struct WheelAcceleratorTests {
    /// Moves through `steps` steps `intervalMS` apart; returns the items moved.
    func spin(_ a: inout WheelAccelerator, steps: Int, intervalMS: Int64, from start: Int64 = 0) -> Int {
        (1...steps).reduce(0) { total, i in total + a.items(for: 1, at: .ms(start + Int64(i) * intervalMS)) }
    }

    @Test(arguments: [Settings.Acceleration.normal, .fast])
    func slowTurnsMoveExactlyOneItemPerStep(mode: Settings.Acceleration) {
        var a = WheelAccelerator(mode: mode)
        // One turn (24 steps) in 2.4 s: 150 °/s.
        #expect(spin(&a, steps: 48, intervalMS: 100) == 48)
    }

    @Test(arguments: [Settings.Acceleration.normal, .fast])
    func twoFastTurnsCrossAThousandRows(mode: Settings.Acceleration) {
        var a = WheelAccelerator(mode: mode)
        // Two turns at 0.6 s a turn (600 °/s).
        #expect(spin(&a, steps: 48, intervalMS: 25) >= 1000)
    }

    /// `wheel 10000` twice 10 ms apart over the socket: a step every microsecond, a velocity whose
    /// (v / start)⁴ is past Int.max. It moves the most a step may, and never traps.
    @Test(arguments: [Settings.Acceleration.normal, .fast])
    func aBurstPastAnyIntMovesTheMostAStepMay(mode: Settings.Acceleration) {
        var a = WheelAccelerator(mode: mode)
        _ = a.items(for: 10_000, at: .ms(0))
        #expect(a.items(for: 10_000, at: .ms(10)) == 10_000 * WheelAccelerator.maxItemsPerStep)
        #expect(a.items(for: -10_000, at: .ms(11)) == -10_000)
    }

    @Test func offNeverAccelerates() {
        var a = WheelAccelerator(mode: .off)
        #expect(spin(&a, steps: 48, intervalMS: 10) == 48)
    }

    @Test func itemsPerStepFollowTheRockboxTable() {
        // At a steady 600 °/s (15° every 25 ms) the smoothed velocity converges and a step moves
        // (600/270)^4 ≈ 24 items (Rockbox's table: 23); at 150 °/s, one.
        var a = WheelAccelerator(mode: .normal)
        _ = spin(&a, steps: 60, intervalMS: 25)
        #expect((23...24).contains(a.items(for: 1, at: .ms(61 * 25))))
        var fast = WheelAccelerator(mode: .fast)
        _ = spin(&fast, steps: 60, intervalMS: 25)
        #expect(fast.items(for: 1, at: .ms(61 * 25)) > 24)
    }

    @Test func reversalAndPausesStartFromRest() {
        var a = WheelAccelerator(mode: .normal)
        #expect(spin(&a, steps: 30, intervalMS: 20) > 30)
        #expect(a.items(for: -1, at: .ms(620)) == -1)
        #expect(a.velocity == 0)
        _ = spin(&a, steps: 30, intervalMS: 20, from: 700)
        // 300 ms pause: rest again.
        #expect(a.items(for: 1, at: .ms(700 + 600 + 300)) == 1)
    }

    @Test func coalescedStepsShareTheirInterval() {
        var a = WheelAccelerator(mode: .normal)
        #expect(a.items(for: 3, at: .ms(0)) == 3)
        // Three steps in 30 ms are a fast spin.
        #expect(a.items(for: 3, at: .ms(30)) > 3)
        var b = WheelAccelerator(mode: .normal)
        _ = b.items(for: 3, at: .ms(0))
        #expect(b.items(for: -3, at: .ms(30)) == -3)
    }
}
