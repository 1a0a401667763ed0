/// Runs a batch of request lines against the table, producing MPD's exact response bytes.
extension MPDCommandTable {
    /// Executes `batch` in order on `context`, stopping at the first failure.
    ///
    /// Each line is tokenized, resolved and run. After a success, `list_OK` follows in
    /// `.listOK` mode; after the last line, `OK`. On the first failure everything produced so far
    /// stays, then `ACK [code@i] {command} message` with `i` the line's list position (0 outside
    /// lists); later lines do not run and no `OK` follows. `close` stops with `.close`;
    /// `idle` stops with `.idle` and no `OK` (its answer comes later, from the session).
    ///
    /// Call it on whatever thread owns `context` (for ClickWheel: a connection's command queue, or
    /// the server's event loop for the commands that never wait, `ControlCommands.executeWithoutBlocking`).
    /// The table itself does no I/O; its handlers may (ClickWheel's read the database and wait for the
    /// engine, which is why they do not run on the event loop).
    ///
    /// Pass a streaming `writer` (`MPDResponseWriter(flushingAt:to:)`) to send large outputs in
    /// chunks while the batch runs; the result's `output` then holds only what is left.
    public func execute(
        _ batch: MPDCommandBatch, context: inout Context, writer: MPDResponseWriter = MPDResponseWriter()
    ) -> MPDBatchResult {
        var writer = writer
        for (position, line) in batch.lines.enumerated() {
            let index = batch.mode == .single ? 0 : position
            let request: MPDRequest
            do {
                request = try MPDTokenizer.tokenize(line[...])
            } catch {
                writer.appendRaw(MPDResponse.ack(error.error, index: index, command: ""))
                return MPDBatchResult(output: writer.bytes, continuation: error.closesConnection ? .close : .ready)
            }
            let command: MPDCommand<Context>
            do {
                command = try resolve(request, permission: context.permission)
            } catch {
                let name = error.code == .unknown ? "" : request.name
                writer.appendRaw(MPDResponse.ack(error, index: index, command: name))
                return MPDBatchResult(output: writer.bytes, continuation: .ready)
            }
            do {
                switch command.action {
                case .handler(let handler):
                    try handler(&context, request, &writer)
                case .builtin(.close):
                    return MPDBatchResult(output: writer.bytes, continuation: .close)
                case .builtin(.idle):
                    let subsystems = try MPDIdleSubsystems.parse(request.arguments)
                    return MPDBatchResult(output: writer.bytes, continuation: .idle(subsystems))
                case .builtin(.ping):
                    break
                case .builtin(.commands):
                    for name in availableNames(for: context.permission) { writer.field("command", name) }
                case .builtin(.notcommands):
                    for name in unavailableNames(for: context.permission) { writer.field("command", name) }
                }
            } catch {
                writer.appendRaw(MPDResponse.ack(error, index: index, command: command.name))
                return MPDBatchResult(output: writer.bytes, continuation: .ready)
            }
            if batch.mode == .listOK {
                writer.appendRaw(MPDResponse.listOK)
            }
        }
        writer.appendRaw(MPDResponse.ok)
        return MPDBatchResult(output: writer.bytes, continuation: .ready)
    }
}
