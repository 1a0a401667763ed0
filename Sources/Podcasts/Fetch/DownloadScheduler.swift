// Bounded concurrency for downloads: at most `limit` run at once (two by default: a Raspberry Pi's link and
// SD card gain nothing from more), the rest wait in order of arrival.

/// Runs jobs at most `limit` at a time, first come first served. A waiting job that is cancelled leaves the
/// queue with `CancellationError`.
public actor DownloadScheduler {
    public let limit: Int
    public private(set) var running = 0
    /// The most jobs that have run at once.
    public private(set) var peak = 0
    private var waiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID = 0

    public init(limit: Int = 2) {
        self.limit = max(1, limit)
    }

    public var waiting: Int { waiters.count }

    /// Runs `job` when a slot is free and returns what it returns.
    public func run<T: Sendable>(_ job: @Sendable () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await job()
    }

    private func acquire() async throws {
        try Task.checkCancellation()
        if running < limit {
            take()
            return
        }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiters.append((id, continuation))
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private func take() {
        running += 1
        peak = max(peak, running)
    }

    private func release() {
        running -= 1
        if !waiters.isEmpty {
            let next = waiters.removeFirst()
            take()
            next.continuation.resume()
        }
    }

    private func cancelWaiter(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
