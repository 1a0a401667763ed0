// libFuzzer target 1 (issue 21): one MPD client's byte stream through the path the control socket's
// connection handler (Sources/ControlServer/MPDConnectionHandler.swift) takes: the session state machine
// (line framer, command lists, idle/noidle, limits), then each batch through the command table (tokenizer,
// lookup, permission and argument count) with the server's own rows (CommandRows.swift, generated from
// Sources/ControlServer/Commands/CommandTable.swift).
//
// Executing a command needs the server (library, queue, engine), which a pure target has not: each row's
// handler here runs only the MPDProtocol parsers the real handlers call on their arguments (filters,
// search/list/count requests, numbers, ranges, song times, time stamps, tags, idle names) and writes the
// arguments back through the response writer. Errors from those parsers become the ACK the session sends.
//
// Built with the MPDProtocol sources in one module by contrib/fuzz/run.sh (swiftc -sanitize=fuzzer,address).
// Checked as it runs (a failed check is a crash the fuzzer reports): every send ends with a newline, a closed
// session stays closed and asks for nothing, a batch arrives only when none runs, the session never buffers
// more than its input limits allow.

/// The per-connection value the fuzz rows work on: every permission, as a server without passwords gives.
struct FuzzContext: MPDCommandContext {
    var permission: MPDPermission = .all
}

enum FuzzCommands {
    static let table = MPDCommandTable<FuzzContext>(allCommands: rows)

    /// A row with the server's name, argument count and permission; its handler parses as the server's does.
    static func row(_ name: String, _ arity: MPDArity, _ permission: MPDPermission) -> MPDCommand<FuzzContext> {
        MPDCommand(name, arity, permission: permission) { _, request, writer throws(MPDError) in
            try parse(request, writer: &writer)
        }
    }

    /// The argument parsing the server's handler for `request.name` starts with, then every generic parser
    /// on every argument (what some handler may call on it), the results written back as fields.
    static func parse(_ request: MPDRequest, writer: inout MPDResponseWriter) throws(MPDError) {
        let name = request.name
        for argument in request.arguments {
            writer.field("arg", bytes: argument.bytes)
            if let value = try? argument.integer() { writer.field("integer", value) }
            if let value = try? argument.unsigned() { writer.field("unsigned", value) }
            if let value = try? argument.boolean() { writer.field("boolean", value ? 1 : 0) }
            if let value = try? argument.float(), value.isFinite { writer.field("float", String(value)) }
            if let value = try? argument.songTimeMilliseconds() { writer.field("ms", value) }
            if let value = try? argument.signedSongTimeMilliseconds() { writer.field("signed_ms", value) }
            if let value = try? argument.queueVersion() { writer.field("version", value) }
            if let value = try? argument.insertPosition(queueLength: 5, currentPosition: 2) { writer.field("pos", value) }
            if let range = try? argument.range() {
                writer.field("range_start", range.start)
                if let clamped = range.clamped(toCount: 7) { writer.field("clamped", clamped.count) }
                writer.field("clamped_or_empty", range.clampedOrEmpty(toCount: 7).count)
            }
            if let stamp = try? MPDTimestamp.parse(argument.bytes) { writer.field("stamp", stamp) }
            if let tag = MPDTag(name: argument) { writer.field("tag", tag.name) }
            if let subsystem = MPDIdleSubsystems(name: argument) { writer.field("subsystem", subsystem.memberNames.joined()) }
        }
        switch name {
        case "find", "search", "findadd", "searchadd":
            let parsed = try MPDSearchRequest.parse(
                request.arguments, foldCase: name.hasPrefix("search"), acceptsPosition: name.hasSuffix("add"))
            writer.field("filter", String(describing: parsed.filter))
        case "playlistfind", "playlistsearch":
            let parsed = try MPDSearchRequest.parse(request.arguments, foldCase: name == "playlistsearch")
            writer.field("filter", String(describing: parsed.filter))
        case "count":
            let parsed = try MPDSearchRequest.parseCount(request.arguments)
            writer.field("filter", String(describing: parsed.filter))
        case "list":
            let parsed = try MPDListRequest.parse(request.arguments)
            writer.field("list", parsed.tag.name)
        case "tagtypes", "idle":
            _ = try MPDIdleSubsystems.parse(request.arguments.dropFirst().map { $0 })
        default:
            if let first = request.arguments.first, first.bytes.first == UInt8(ascii: "(") {
                _ = try MPDFilterParser(foldCase: false, acceptsStartsWith: true).parse(request.arguments)
            }
        }
    }
}

/// Feeds `input` to a fresh session in reads of a size the input decides, with an engine change after each
/// read, running every batch to the end as the connection handler does.
func fuzzOneClient(_ input: UnsafeBufferPointer<UInt8>) {
    let limits = MPDLimits(lineBufferSize: 8192, maxCommandListSize: 65536)
    var session = MPDSessionStateMachine(limits: limits)
    var context = FuzzContext()
    var closed = false
    let readSize = 1 + input.count % 61

    func drive() {
        while true {
            switch session.nextAction() {
            case .send(let bytes):
                precondition(!closed, "sent after close")
                precondition(bytes.last == UInt8(ascii: "\n"), "a send that does not end a line")
            case .execute(let batch):
                precondition(!closed, "a batch after close")
                let result = FuzzCommands.table.execute(batch, context: &context)
                precondition(result.output.isEmpty || result.output.last == UInt8(ascii: "\n"), "an answer that does not end a line")
                session.batchFinished(result)
            case .close:
                precondition(!closed, "closed twice")
                closed = true
            case .wait:
                precondition(!closed || session.isClosed, "closed but the session reads on")
                return
            }
        }
    }

    drive()
    var start = 0
    while start < input.count {
        let end = min(input.count, start + readSize)
        session.receive(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[start..<end])))
        drive()
        // Another client's action: one subsystem chosen by the read's first byte.
        session.notify(MPDIdleSubsystems(rawValue: 1 << (UInt32(input[start]) % 15)))
        drive()
        start = end
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOneClient(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
