/// Request lines the session hands to the caller to execute in one go.
///
/// A batch is a single request, or a whole command list once `command_list_end` arrived. The
/// lines are raw (cleaned, not yet tokenized): tokenizer errors are reported at execution with
/// the line's list index, as MPD does.
public struct MPDCommandBatch: Sendable, Hashable {
    /// How the batch's outputs are framed.
    public enum Mode: Sendable, Hashable {
        /// One request outside a list: ACK index 0, `OK` at the end.
        case single
        /// `command_list_begin`: outputs concatenated, one final `OK`.
        case list
        /// `command_list_ok_begin`: `list_OK` after each command's output, then `OK`.
        case listOK
    }

    public var mode: Mode
    public var lines: [[UInt8]]

    public init(mode: Mode, lines: [[UInt8]]) {
        self.mode = mode
        self.lines = lines
    }
}

/// What executing a batch produced: the bytes to send and what the session does next.
public struct MPDBatchResult: Sendable, Hashable {
    /// What follows the output.
    public enum Continuation: Sendable, Hashable {
        /// Read the next request.
        case ready
        /// Send the output, then close the connection (`close`, `Invalid word character`).
        case close
        /// Send the output, then wait in `idle` for these subsystems.
        case idle(MPDIdleSubsystems)
    }

    public var output: [UInt8]
    public var continuation: Continuation

    public init(output: [UInt8], continuation: Continuation) {
        self.output = output
        self.continuation = continuation
    }
}
