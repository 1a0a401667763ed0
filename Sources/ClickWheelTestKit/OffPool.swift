import NamedThreads

/// Runs `body` on a thread of its own and waits for it without holding one of Swift's cooperative
/// threads: a test that decodes or indexes for many seconds would otherwise take a pool thread (two
/// on a 2-core machine) from the tests awaiting real-time events beside it, which then time out.
public func offThePool<T: Sendable>(
    _ name: String = "test-work", _ body: @escaping @Sendable () throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        do {
            try NamedThread.detach(name: name) { continuation.resume(with: Result { try body() }) }
        } catch {
            continuation.resume(throwing: error)
        }
    }
}
