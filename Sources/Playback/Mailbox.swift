import Foundation

/// Commands for the audio thread and the doorbell that wakes it.
///
/// Thread rules: `post` and `wake` from any thread (the engine, libpulse's loop thread); `wait` only on the
/// audio thread. A wake that comes before `wait` is not lost: `wait` then returns at once.
final class Mailbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var commands: [PlayerCommand] = []
    private var rung = false
    private var finished = false

    /// Queues a command and wakes the audio thread.
    func post(_ command: PlayerCommand) {
        condition.lock()
        commands.append(command)
        rung = true
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes the audio thread without a command (there is room to write, an output event…).
    func wake() {
        condition.lock()
        rung = true
        condition.broadcast()
        condition.unlock()
    }

    /// Audio thread: sleeps until woken or `timeout` seconds passed, then returns the queued commands.
    func wait(timeout: Double) -> [PlayerCommand] {
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
