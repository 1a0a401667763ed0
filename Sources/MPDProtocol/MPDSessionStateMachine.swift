/// The protocol state of one client connection: it decides, the caller acts.
///
/// Feed received bytes with `receive(_:)`, engine changes with `notify(_:)`, and finished batches
/// with `batchFinished(_:)`; after each, call `nextAction()` until it returns `.wait`:
///
/// ```swift
/// loop: while true {
///     switch session.nextAction() {
///     case .send(let bytes): write(bytes)
///     case .execute(let batch): session.batchFinished(table.execute(batch, context: &context))
///     case .close: closeSocket(); break loop
///     case .wait: break loop
///     }
/// }
/// ```
///
/// The first action of a new session sends the greeting. States follow MPD's `Client`:
/// normal, collecting a command list, executing a batch, idle, closed. Only one batch is out at
/// a time; input arriving meanwhile is buffered (the caller should stop reading from the socket
/// while a batch runs, for back-pressure). Not thread-safe: one connection owns it.
public struct MPDSessionStateMachine: Sendable {
    /// What the caller must do next.
    public enum Action: Sendable, Hashable {
        /// Write these bytes to the client.
        case send([UInt8])
        /// Run this batch (`MPDCommandTable.execute`) and report it with `batchFinished`.
        case execute(MPDCommandBatch)
        /// Close the connection; everything sent before was meant to be flushed first.
        case close
        /// Nothing to do until more input, an engine event, or a batch result.
        case wait
    }

    enum State: Sendable {
        case ready
        case collecting(mode: MPDCommandBatch.Mode, lines: [[UInt8]], size: Int)
        case executing
        case idle(MPDIdleSubsystems)
        case closed
    }

    private var framer: MPDLineFramer
    private let limits: MPDLimits
    private(set) var state: State = .ready
    private var outbox: [Action]
    /// Events this client has not been told about yet (accumulate while it is not idle).
    public private(set) var pending: MPDIdleSubsystems = []

    public init(limits: MPDLimits = .mpdDefaults, sendsGreeting: Bool = true) {
        self.limits = limits
        framer = MPDLineFramer(limits: limits)
        outbox = sendsGreeting ? [.send(MPDProtocolVersion.greeting)] : []
    }

    /// Whether the client waits in `idle` (MPD exempts it from `connection_timeout`).
    public var isIdle: Bool {
        if case .idle = state { return true }
        return false
    }

    /// Whether the connection is closed (or must be); further input is ignored.
    public var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Whether the session waits for a request with nothing buffered, queued or running: a request
    /// line received now would be executed at once and leave the session as it is if answered `.ready`.
    /// The caller may then answer a whole-line request itself (`status` polls from a kept answer).
    public var isReadyAndEmpty: Bool {
        guard case .ready = state else { return false }
        return outbox.isEmpty && framer.bufferedByteCount == 0
    }

    /// Buffers bytes received from the client.
    public mutating func receive(_ bytes: some Sequence<UInt8>) {
        guard !isClosed else { return }
        framer.append(contentsOf: bytes)
    }

    /// Buffers bytes received from the client, straight from the read buffer.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosed else { return }
        framer.append(contentsOf: bytes)
    }

    /// Records that `subsystems` changed; an idling client is answered by `nextAction()`.
    public mutating func notify(_ subsystems: MPDIdleSubsystems) {
        guard !isClosed else { return }
        pending.formUnion(subsystems)
    }

    /// Reports the result of the batch handed out by the last `.execute` action.
    public mutating func batchFinished(_ result: MPDBatchResult) {
        guard case .executing = state else {
            preconditionFailure("batchFinished without an executing batch")
        }
        if !result.output.isEmpty {
            outbox.append(.send(result.output))
        }
        switch result.continuation {
        case .ready: state = .ready
        case .close: closeConnection()
        case .idle(let subsystems): state = .idle(subsystems)
        }
    }

    /// The next thing the caller must do.
    public mutating func nextAction() -> Action {
        while true {
            if !outbox.isEmpty { return outbox.removeFirst() }
            switch state {
            case .closed, .executing:
                return .wait
            case .idle(let filter):
                if !pending.isDisjoint(with: filter) {
                    let answer = pending.intersection(filter)
                    pending = []
                    state = .ready
                    return .send(answer.encodedAnswer())
                }
            case .ready, .collecting:
                break
            }
            switch framer.next() {
            case .needMoreData:
                return .wait
            case .overflow:
                closeConnection()
            case .line(let raw):
                processLine(MPDRequestLine.clean(raw), of: raw)
            }
        }
    }

    /// `line`: `raw` cleaned (`MPDRequestLine.clean`); when nothing was cut, `raw` itself is handed on
    /// rather than a copy.
    private mutating func processLine(_ line: ArraySlice<UInt8>, of raw: [UInt8]) {
        guard MPDRequestLine.startsLikeACommand(line) else { return closeConnection() }
        if MPDRequestLine.line(line, is: "noidle") {
            if case .idle = state {
                state = .ready
                outbox.append(.send(MPDResponse.ok))
            }
            return
        }
        switch state {
        case .idle:
            closeConnection()
        case .collecting(let mode, var lines, var size):
            if MPDRequestLine.line(line, is: "command_list_end") {
                state = .executing
                outbox.append(.execute(MPDCommandBatch(mode: mode, lines: lines)))
                return
            }
            size += line.count + 1
            guard size <= limits.maxCommandListSize else { return closeConnection() }
            state = .executing  // drop the state's reference so `lines` is appended to in place
            lines.append(Array(line))
            state = .collecting(mode: mode, lines: lines, size: size)
        case .ready:
            if MPDRequestLine.line(line, is: "command_list_begin") {
                state = .collecting(mode: .list, lines: [], size: 0)
            } else if MPDRequestLine.line(line, is: "command_list_ok_begin") {
                state = .collecting(mode: .listOK, lines: [], size: 0)
            } else {
                state = .executing
                let whole = line.count == raw.count ? raw : Array(line)
                outbox.append(.execute(MPDCommandBatch(mode: .single, lines: [whole])))
            }
        case .executing, .closed:
            preconditionFailure("lines are not read in state \(state)")
        }
    }

    private mutating func closeConnection() {
        state = .closed
        outbox.append(.close)
    }
}
