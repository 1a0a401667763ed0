import Foundation

/// Commands for the audio thread and the doorbell that wakes it.
///
/// Thread rules: `post` and `wake` from any thread (the engine, libpulse's loop thread); `wait` only on the
/// audio thread. A wake that comes before `wait` is not lost: `wait` then returns at once.
/// `@unchecked Sendable`: every mutable field is guarded by `condition`.
final class Mailbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var commands: [(ticket: UInt64, command: PlayerCommand)] = []
    /// The last ticket handed out: commands are numbered 1, 2, 3… in the order they were posted.
    private var lastTicket: UInt64 = 0
    private var rung = false
    private var finished = false

    /// Queues a command and wakes the audio thread; returns the command's ticket.
    @discardableResult
    func post(_ command: PlayerCommand) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        lastTicket += 1
        commands.append((lastTicket, command))
        rung = true
        condition.broadcast()
        return lastTicket
    }

    /// Wakes the audio thread without a command (there is room to write, an output event…).
    func wake() {
        condition.lock()
        rung = true
        condition.broadcast()
        condition.unlock()
    }

    /// Audio thread: sleeps until woken or `timeout` seconds passed, then returns the queued commands
    /// with their tickets, in order.
    func wait(timeout: Double) -> [(ticket: UInt64, command: PlayerCommand)] {
        condition.lock()
        defer { condition.unlock() }
        if !rung && commands.isEmpty {
            _ = condition.wait(until: Date(timeIntervalSinceNow: timeout))
        }
        rung = false
        defer { commands = [] }
        return commands
    }

    /// Audio thread: says the thread is about to exit.
    func markFinished() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Any thread but the audio thread: blocks until `markFinished`.
    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
