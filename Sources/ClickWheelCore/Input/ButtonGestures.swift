/// Recognises click, hold and hold-repeat from button edges and ticks, by their timestamps.
///
/// A press released before `holdMS` is a click (reported at release). A press still down at `holdMS`
/// becomes a hold (reported by the first tick or release at or after that time), then repeats every
/// `repeatMS` while held, and reports `.released` when it comes up. Only one button is tracked at a
/// time per button; buttons are independent.
public struct ButtonGestures: Hashable, Sendable {
    public enum Gesture: Hashable, Sendable {
        case click(Button)
        case hold(Button)
        /// The nth repeat (1, 2, …) of a hold, for seeking faster the longer it is held.
        case repeatHold(Button, count: Int)
        /// A held button came up.
        case released(Button)
    }

    public var holdMS: Int64
    public var repeatMS: Int64
    private var pressed: [Button: Press] = [:]

    private struct Press: Hashable, Sendable {
        var since: Timestamp
        var held = false
        var repeats = 0
    }

    public init(holdMS: Int64 = 600, repeatMS: Int64 = 200) {
        self.holdMS = holdMS
        self.repeatMS = repeatMS
    }

    /// True while any button is down.
    public var anyDown: Bool { !pressed.isEmpty }

    /// When the next hold or hold-repeat of a button that is down falls due (nil: none is down): the
    /// shell's next tick.
    public var nextDue: Timestamp? {
        pressed.values.map { press in
            press.since.adding(ms: press.held ? holdMS + Int64(press.repeats + 1) * repeatMS : holdMS)
        }.min()
    }

    /// Feeds a button edge.
    public mutating func feed(_ button: Button, _ phase: ButtonPhase, at time: Timestamp) -> [Gesture] {
        switch phase {
        case .down:
            if pressed[button] == nil { pressed[button] = Press(since: time) }
            return []
        case .up:
            var out = tick(at: time)
            guard let press = pressed.removeValue(forKey: button) else { return out }
            out.append(press.held ? .released(button) : .click(button))
            return out
        }
    }

    /// Advances time: reports holds and repeats that are due.
    public mutating func tick(at time: Timestamp) -> [Gesture] {
        var out: [Gesture] = []
        for button in Button.allCases {
            guard var press = pressed[button] else { continue }
            let held = time.milliseconds(since: press.since)
            if !press.held && held >= holdMS {
                press.held = true
                out.append(.hold(button))
            }
            if press.held {
                let due = Int((held - holdMS) / repeatMS)
                while press.repeats < due {
                    press.repeats += 1
                    out.append(.repeatHold(button, count: press.repeats))
                }
            }
            pressed[button] = press
        }
        return out
    }
}
