public import ClickWheelCore
public import ControlServer
import Dispatch
import Devices
import Foundation
public import MPDProtocol
import NamedThreads

/// What the control server reads and asks of the engine (`PlayerStateSource`), and the commands the
/// engine has the shell run (Settings → Shut Down / Restart).
extension EngineLoop: PlayerStateSource {
    /// The engine's playback state as last published: no wait for the queue, so cheap enough for the
    /// control server's event loop. While playing, the elapsed time (and the time played) runs on from
    /// the last position report at the real-time rate (as MPD computes it), at most `positionSlackMS`
    /// past it.
    public func snapshot() -> PlayerSnapshot {
        var (s, at) = publishedState()
        if s.status == .playing {
            let ran = (MonotonicClock.now().microseconds - at.microseconds) / 1000
            s.elapsedMS += Int(min(max(0, ran), Self.positionSlackMS))
            s.playedMS += min(max(0, ran), Self.positionSlackMS)
        }
        return s
    }

    /// How far `snapshot()` runs the elapsed time past the engine's last word (position reports come
    /// once a second; if they stop, the time stops too).
    static let positionSlackMS: Int64 = 2000

    /// A client changed stored playlists: the menus reread them, idle clients hear of it.
    public func libraryEdited(_ subsystems: MPDIdleSubsystems) {
        queue.async { [self] in
            handle(.libraryChanged(at: MonotonicClock.now()))
            listener(subsystems)
        }
    }

    /// MPD's `update`: a job id; the scan starts unless one runs (then the job is that scan).
    public func update() -> Int {
        dispatchPrecondition(condition: .notOnQueue(queue))
        return queue.sync { startUpdateJob() }
    }

    /// Runs a control request on the loop's queue and carries out its effects before answering, so a
    /// client's next command sees the change.
    public func control(_ request: ControlRequest) -> Result<[Int], ControlError> {
        dispatchPrecondition(condition: .notOnQueue(queue))
        return queue.sync { runControl(request) }
    }

    /// Input from the socket, fed as the hardware would feed it; a hold releases `ms` later (the
    /// ticks in between make it a hold, as with a real button).
    public func input(_ input: RemoteInput) {
        switch input {
        case .wheel(let steps):
            post(.wheel(steps, at: MonotonicClock.now()))
        case .press(let button):
            dispatchPrecondition(condition: .notOnQueue(queue))
            queue.sync {
                handle(.button(button, .down, at: MonotonicClock.now()))
                handle(.button(button, .up, at: MonotonicClock.now()))
            }
        case .hold(let button, let ms):
            post(.button(button, .down, at: MonotonicClock.now()))
            queue.asyncAfter(deadline: .now() + .milliseconds(ms)) { [self] in
                handle(.button(button, .up, at: MonotonicClock.now()))
            }
        }
    }

    public func screen() -> ScreenSnapshot {
        dispatchPrecondition(condition: .notOnQueue(queue))
        return queue.sync { screenNow() }
    }
}

extension EngineLoop {
    /// Runs the command configured for Settings → Shut Down / Restart on a thread of its own (the
    /// engine's queue never waits for it) and logs one line with its exit status.
    func runPowerCommand(_ action: PowerAction) {
        guard let command = powerCommands[action], !command.isEmpty else {
            logger.warning("\(action.title): no command configured")
            return
        }
        let logger = self.logger
        do {
            try NamedThread.detach(name: "cw-power") {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", command]
                do {
                    try process.run()
                    process.waitUntilExit()
                    logger.notice("\(action.title): '\(command)' exited with status \(process.terminationStatus)")
                } catch {
                    logger.error("\(action.title): cannot run '\(command)': \(error)")
                }
            }
        } catch {
            logger.error("\(action.title): \(error)")
        }
    }
}
