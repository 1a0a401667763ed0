import MPDProtocol

/// Plays the server's part for one connection: runs the session's actions to completion, the
/// way the socket server will, and records what would go out on the wire.
struct SessionDriver {
    var session: MPDSessionStateMachine
    var context = StubContext()
    let table: MPDCommandTable<StubContext>
    /// Everything sent so far.
    private(set) var output: [UInt8] = []
    private(set) var closed = false
    /// Batches executed so far (to check what reached the command table).
    private(set) var batches: [MPDCommandBatch] = []

    init(table: MPDCommandTable<StubContext> = StubCommandTable.table, limits: MPDLimits = .mpdDefaults) {
        self.table = table
        session = MPDSessionStateMachine(limits: limits)
        run()
    }

    /// Feeds bytes from the client and carries out the resulting actions.
    mutating func receive(_ bytes: some Sequence<UInt8>) {
        session.receive(bytes)
        run()
    }

    /// Reports an engine change to this session (another client changed something).
    mutating func notify(_ subsystems: MPDIdleSubsystems) {
        session.notify(subsystems)
        run()
    }

    private mutating func run() {
        while true {
            switch session.nextAction() {
            case .send(let bytes):
                precondition(!closed, "sent after close")
                output += bytes
            case .execute(let batch):
                batches.append(batch)
                let result = table.execute(batch, context: &context)
                session.batchFinished(result)
                // The server broadcasts engine changes to every session, this one included.
                let events = context.events
                context.events = []
                if !events.isEmpty { session.notify(events) }
            case .close:
                closed = true
            case .wait:
                return
            }
        }
    }
}
