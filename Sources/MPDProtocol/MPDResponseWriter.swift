/// Collects one command's response bytes: `Key: value` lines and binary chunks.
///
/// Handlers write only their payload; the command table adds `list_OK`, `OK` or the `ACK` line.
/// Values are sanitised (`MPDValueSanitizer`); keys are the handler's own constants and must be
/// plain ASCII without `:` or control characters.
///
/// A writer made with `init(flushingAt:to:)` streams: whenever a handler's buffered output reaches
/// the threshold it is handed to the sink, so a huge listing (`listallinfo`) never sits in memory
/// whole. Nothing else is sent on the connection while a batch runs, so the order stays right:
/// streamed chunks first, then the batch result's `output`.
public struct MPDResponseWriter: Sendable {
    /// The bytes written and not yet handed to the sink.
    public private(set) var bytes: [UInt8]
    private let flushThreshold: Int
    private let sink: (@Sendable ([UInt8]) -> Void)?
    private let stillWanted: (@Sendable () -> Bool)?
    /// The client is gone (the streaming writer's `stillWanted` said no after a chunk): a long listing
    /// should stop reading rows, since nobody will get them.
    public private(set) var abandoned = false

    /// A writer that keeps everything until the batch ends.
    public init() {
        bytes = []
        flushThreshold = .max
        sink = nil
        stillWanted = nil
    }

    /// A writer that hands its bytes to `sink` each time at least `threshold` are buffered.
    ///
    /// `sink` is called on the thread running the batch; it must not call back into the session.
    /// `stillWanted`, asked after each chunk, says whether anyone still takes the output (`abandoned`).
    public init(
        flushingAt threshold: Int, to sink: @escaping @Sendable ([UInt8]) -> Void,
        stillWanted: (@Sendable () -> Bool)? = nil
    ) {
        precondition(threshold > 0, "flush threshold must be positive")
        bytes = []
        flushThreshold = threshold
        self.sink = sink
        self.stillWanted = stillWanted
    }

    /// Writes `key: value\n`.
    public mutating func field(_ key: String, _ value: String) {
        appendKey(key)
        MPDValueSanitizer.append(value, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        flushIfFull()
    }

    /// Writes `key: value\n` for an integer value.
    public mutating func field(_ key: String, _ value: some BinaryInteger) {
        appendKey(key)
        bytes.append(contentsOf: String(value).utf8)
        bytes.append(UInt8(ascii: "\n"))
        flushIfFull()
    }

    /// Writes `key: value\n` where the value is raw bytes (e.g. a file name that is not UTF-8).
    public mutating func field(_ key: String, bytes value: some Collection<UInt8>) {
        appendKey(key)
        MPDValueSanitizer.append(bytes: value, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        flushIfFull()
    }

    /// Writes a binary chunk: `binary: N\n`, the N bytes unchanged, then `\n` (N may be 0).
    public mutating func binary(_ data: some Collection<UInt8>) {
        field("binary", data.count)
        bytes.append(contentsOf: data)
        bytes.append(UInt8(ascii: "\n"))
        flushIfFull()
    }

    /// Lets `body` append whole `key: value` lines to the output bytes itself (a listing formatting
    /// its rows in place, with its values sanitised as `field` does), then hands the bytes on as
    /// `field` would.
    public mutating func appendLines<E: Error>(_ body: (inout [UInt8]) throws(E) -> Void) throws(E) {
        try body(&bytes)
        flushIfFull()
    }

    /// Appends already encoded protocol bytes (for the codec's own framing lines).
    mutating func appendRaw(_ raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    private mutating func flushIfFull() {
        guard let sink, bytes.count >= flushThreshold else { return }
        sink(bytes)
        bytes.removeAll(keepingCapacity: true)
        if let stillWanted, !stillWanted() { abandoned = true }
    }

    private mutating func appendKey(_ key: String) {
        assert(key.utf8.allSatisfy { $0 > 0x20 && $0 != UInt8(ascii: ":") && $0 < 0x7F }, "bad key \(key)")
        bytes.append(contentsOf: key.utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
    }
}

/// The protocol's fixed framing lines.
public enum MPDResponse {
    /// `OK\n`: the end of a successful response.
    public static let ok: [UInt8] = Array("OK\n".utf8)

    /// `list_OK\n`: the end of one command's output inside `command_list_ok_begin`.
    public static let listOK: [UInt8] = Array("list_OK\n".utf8)

    /// Encodes `ACK [code@index] {command} message\n`; `command` is empty when no command was
    /// identified (unknown command, tokenizer errors).
    public static func ack(_ error: MPDError, index: Int, command: String) -> [UInt8] {
        var line = Array("ACK [\(error.code.rawValue)@\(index)] {".utf8)
        MPDValueSanitizer.append(command, to: &line)
        line.append(contentsOf: "} ".utf8)
        MPDValueSanitizer.append(error.message, to: &line)
        line.append(UInt8(ascii: "\n"))
        return line
    }
}
