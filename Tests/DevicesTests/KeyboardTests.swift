import ClickWheelCore
import Devices
import Glibc
import Synchronization
import Testing

@Suite struct KeyboardTests {
    @Test func keysMapToTheWheelAndButtons() {
        var d = KeyboardDecoder()
        let keys = d.feed(Array("jk\r \u{7F}np".utf8) + [0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42])
        #expect(
            keys == [
                .wheel(1), .wheel(-1), .click(.select), .click(.playPause), .click(.menu), .click(.next),
                .click(.previous), .wheel(-1), .wheel(1),
            ])
    }

    @Test func holdsByPrefixOrShiftAndALoneEscapeIsMenu() {
        var d = KeyboardDecoder()
        #expect(
            d.feed(Array("h\rNPSM".utf8)) == [
                .hold(.select), .hold(.next), .hold(.previous), .hold(.select), .hold(.menu),
            ])
        #expect(d.feed([0x1B]) == [.click(.menu)])
        #expect(d.feed(Array("q".utf8)) == [.quit])
    }

    @Test func wheelKeysOfOneReadAreJoined() {
        let keys: [KeyboardDecoder.Key] = [.wheel(1), .wheel(1), .wheel(1), .wheel(-1), .click(.select), .wheel(1)]
        #expect(KeyboardDecoder.coalesced(keys) == [.wheel(3), .wheel(-1), .click(.select), .wheel(1)])
    }

    @Test func anEscapeSequenceSplitAcrossReadsIsKept() {
        var d = KeyboardDecoder()
        #expect(d.feed([0x1B, 0x5B]).isEmpty)
        #expect(d.feed([0x42]) == [.wheel(1)])
    }
}

/// `KeyboardInput.stop()` restores the terminal through the process's one `TerminalGuard`, as the terminal
/// display's tests do: this test runs in their serialized suite, never beside them (the Thread Sanitizer
/// saw it restore while `rawModeIsEnteredAndRestored` read the guard's state).
extension TerminalDisplayTests {
    @Test func inputFromAPipeArrivesInOrderWithHoldReleasedLater() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let events = Mutex<[InputEvent]>([])
        let done = Mutex(false)
        let input = KeyboardInput(fd: fds[0], holdMS: 700) { done.withLock { $0 = true } }
        try input.start { e in events.withLock { $0.append(e) } }
        let bytes = Array("jN".utf8)
        _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        for _ in 0..<500 where !done.withLock({ $0 }) { usleep(10_000) }
        input.stop()
        close(fds[0])
        let got = events.withLock { $0 }
        #expect(got.count == 3)
        guard got.count == 3, case .wheel(1, _) = got[0], case .button(.next, .down, let down) = got[1],
            case .button(.next, .up, let up) = got[2]
        else {
            Issue.record("unexpected events \(got)")
            return
        }
        #expect(up.milliseconds(since: down) >= 700)
    }
}
