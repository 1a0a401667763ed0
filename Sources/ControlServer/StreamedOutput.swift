import Foundation
import NIOCore

/// The bridge for an answer streamed while its batch runs on the connection's command queue
/// (`listallinfo` and other long listings): the writer's chunks go to the connection's event loop, and
/// the batch waits while more than `window` bytes are written but not yet taken by the client. So a
/// slow reader pauses its own listing (on its own queue, holding no database reader: the listings
/// read the songs kept in memory) instead of piling the answer up in memory, and is never closed for
/// owing more than the output limit (the window stays well below it). A client that takes nothing
/// for `stallTimeout` is closed (one log line), and the rest of the answer is dropped.
///
/// Thread rules: `send` on the thread running the batch (it blocks); the rest on the connection's
/// event loop.
/// `@unchecked Sendable`: its mutable fields are guarded by `condition`.
final class StreamedOutput: @unchecked Sendable {
    private let condition = NSCondition()
    /// Bytes handed to the channel and not yet written to the socket (guarded by `condition`).
    private var owed = 0
    /// The channel is gone, or the client stalled: drop what comes (guarded by `condition`).
    private var dropped = false
    private let window: Int
    private let stallTimeout: TimeInterval
    private let loop: any EventLoop
    private let write: @Sendable (ByteBuffer, EventLoopPromise<Void>) -> Void
    private let stalled: @Sendable () -> Void

    /// `write` runs on `loop` and writes and flushes the chunk, completing the promise when it is
    /// written (or failed); `stalled` runs on `loop` when the client took nothing for `stallTimeout`.
    init(
        window: Int, stallTimeout: TimeInterval, loop: any EventLoop,
        write: @escaping @Sendable (ByteBuffer, EventLoopPromise<Void>) -> Void, stalled: @escaping @Sendable () -> Void
    ) {
        self.window = window
        self.stallTimeout = stallTimeout
        self.loop = loop
        self.write = write
        self.stalled = stalled
    }

    /// False once the answer is being dropped: the client hung up (a write failed) or stalled.
    var isWanted: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !dropped
    }

    /// The chunk size for a window: several chunks in flight keep the socket busy.
    static func chunkSize(window: Int) -> Int { max(1, window / 4) }

    /// Hands `bytes` to the event loop, first waiting while the client owes the window.
    func send(_ bytes: [UInt8]) {
        condition.lock()
        while owed >= window && !dropped {
            if !condition.wait(until: Date(timeIntervalSinceNow: stallTimeout)) && owed >= window && !dropped {
                dropped = true
                loop.execute(stalled)
            }
        }
        if dropped {
            condition.unlock()
            return
        }
        owed += bytes.count
        condition.unlock()
        let count = bytes.count
        loop.execute { [self] in
            let promise = loop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { [self] result in
                condition.lock()
                owed -= count
                if case .failure = result { dropped = true }
                condition.broadcast()
                condition.unlock()
            }
            write(ByteBuffer(bytes: bytes), promise)
        }
    }
}
