import MPDProtocol
import Testing

/// The session state machine's actions, driven directly (no command table in between).
@Suite struct SessionStateMachineTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func greetsFirstThenWaits() {
        var session = MPDSessionStateMachine()
        #expect(session.nextAction() == .send(Self.bytes("OK MPD 0.23.5\n")))
        #expect(session.nextAction() == .wait)
        var quiet = MPDSessionStateMachine(sendsGreeting: false)
        #expect(quiet.nextAction() == .wait)
    }

    @Test func readyAndEmptyOnlyWhenNothingIsBufferedQueuedOrRunning() {
        var session = MPDSessionStateMachine()
        #expect(!session.isReadyAndEmpty)  // the greeting is queued
        #expect(session.nextAction() == .send(Self.bytes("OK MPD 0.23.5\n")))
        #expect(session.nextAction() == .wait)
        #expect(session.isReadyAndEmpty)
        session.receive(Self.bytes("stat"))
        #expect(!session.isReadyAndEmpty)  // half a line
        session.receive(Self.bytes("us\n"))
        #expect(session.nextAction() == .execute(MPDCommandBatch(mode: .single, lines: [Self.bytes("status")])))
        #expect(!session.isReadyAndEmpty)  // running
        session.batchFinished(MPDBatchResult(output: Self.bytes("OK\n"), continuation: .ready))
        #expect(!session.isReadyAndEmpty)  // its answer is queued
        #expect(session.nextAction() == .send(Self.bytes("OK\n")))
        #expect(session.nextAction() == .wait)
        #expect(session.isReadyAndEmpty)
        session.receive(Self.bytes("idle\n"))
        _ = session.nextAction()
        session.batchFinished(MPDBatchResult(output: [], continuation: .idle(.player)))
        #expect(session.nextAction() == .wait)
        #expect(!session.isReadyAndEmpty)  // idling
    }

    @Test func oneBatchAtATimeInArrivalOrder() {
        var session = MPDSessionStateMachine(sendsGreeting: false)
        session.receive(Self.bytes("ping\r\nstatus\n"))
        #expect(session.nextAction() == .execute(MPDCommandBatch(mode: .single, lines: [Self.bytes("ping")])))
        #expect(session.nextAction() == .wait)
        session.batchFinished(MPDBatchResult(output: MPDResponse.ok, continuation: .ready))
        #expect(session.nextAction() == .send(MPDResponse.ok))
        #expect(session.nextAction() == .execute(MPDCommandBatch(mode: .single, lines: [Self.bytes("status")])))
    }

    @Test func commandListsAreBufferedUntilTheirEnd() {
        var session = MPDSessionStateMachine(sendsGreeting: false)
        session.receive(Self.bytes("command_list_ok_begin\nping\nnoidle\ncommand_list_begin\nstatus 1\n"))
        #expect(session.nextAction() == .wait)
        session.receive(Self.bytes("command_list_end\n"))
        let lines = ["ping", "command_list_begin", "status 1"].map(Self.bytes)
        #expect(session.nextAction() == .execute(MPDCommandBatch(mode: .listOK, lines: lines)))
    }

    @Test func idleAnswersPendingEventsOnceInTheFilter() {
        var session = MPDSessionStateMachine(sendsGreeting: false)
        session.notify(.options)
        session.receive(Self.bytes("idle player\n"))
        guard case .execute = session.nextAction() else { return #expect(Bool(false), "idle must execute") }
        session.batchFinished(MPDBatchResult(output: [], continuation: .idle(.player)))
        #expect(session.isIdle)
        #expect(session.nextAction() == .wait)
        session.notify(.mixer)
        #expect(session.nextAction() == .wait)
        session.notify(.player)
        #expect(session.nextAction() == .send(Self.bytes("changed: player\nOK\n")))
        #expect(!session.isIdle)
        #expect(session.pending.isEmpty, "events outside the filter are dropped when idle fires")
    }

    @Test func eventsWhileNotIdlingWaitForTheNextIdle() {
        var session = MPDSessionStateMachine(sendsGreeting: false)
        session.notify([.update, .database])
        #expect(session.nextAction() == .wait)
        session.receive(Self.bytes("idle\n"))
        _ = session.nextAction()
        session.batchFinished(MPDBatchResult(output: [], continuation: .idle(.all)))
        #expect(session.nextAction() == .send(Self.bytes("changed: database\nchanged: update\nOK\n")))
    }

    @Test func noidleEndsIdleAndStrayNoidleIsIgnored() {
        var session = MPDSessionStateMachine(sendsGreeting: false)
        session.receive(Self.bytes("noidle\nidle\n"))
        _ = session.nextAction()
        session.batchFinished(MPDBatchResult(output: [], continuation: .idle(.all)))
        session.receive(Self.bytes("noidle\n"))
        #expect(session.nextAction() == .send(MPDResponse.ok))
        #expect(session.nextAction() == .wait)
    }

    @Test func anythingElseWhileIdlingCloses() {
        var session = MPDSessionStateMachine(sendsGreeting: false)
        session.receive(Self.bytes("idle\n"))
        _ = session.nextAction()
        session.batchFinished(MPDBatchResult(output: [], continuation: .idle(.all)))
        session.receive(Self.bytes("noidle x\nping\n"))
        #expect(session.nextAction() == .close)
        #expect(session.isClosed)
        session.receive(Self.bytes("ping\n"))
        session.notify(.player)
        #expect(session.nextAction() == .wait)
    }

    @Test func closeAfterOutputKeepsTheOutputFirst() {
        var session = MPDSessionStateMachine(sendsGreeting: false)
        session.receive(Self.bytes("st@tus\nping\n"))
        _ = session.nextAction()
        let ack = Self.bytes("ACK [5@0] {} Invalid word character\n")
        session.batchFinished(MPDBatchResult(output: ack, continuation: .close))
        #expect(session.nextAction() == .send(ack))
        #expect(session.nextAction() == .close)
        #expect(session.nextAction() == .wait)
    }
}
