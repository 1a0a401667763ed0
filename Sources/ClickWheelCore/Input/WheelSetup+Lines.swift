/// What Settings → Wheel shows: a prompt per step, a reason when a step is asked again, the summary
/// with its Save / Cancel choice, and the last message.
///
/// Two sizes of text: `compact` lines fit 16 columns and two rows (a 16x2 LCD has no title row, so
/// two lines is all it shows); the others fit 20 columns under the title row of a 4-row display.
extension WheelSetup {
    /// The screen: a title (drawn only where a title row fits) and its lines.
    public func view(compact: Bool, now: Timestamp) -> ScreenView {
        switch phase {
        case .measuring:
            let title = "Wheel \(min(calibration.step.rawValue + 1, 3))/3"
            if let notice, let until = noticeUntil, now < until { return .text(title: title, lines: notice) }
            return .text(title: title, lines: prompt(compact: compact))
        case .summary(let result, let save):
            let choice = save ? ">Save   Cancel" : " Save  >Cancel"
            return .text(title: "Wheel", lines: Self.summary(result, compact: compact) + [choice])
        case .saving:
            return .text(title: "Wheel", lines: ["Saving…"])
        case .finished(let lines):
            return .text(title: "Wheel", lines: lines)
        }
    }

    /// What to do in the current step.
    func prompt(compact: Bool) -> [String] {
        switch (calibration.step, calibration.kind) {
        case (.detent, _):
            // The kind of wheel shows only once it moves: ask for both.
            compact
                ? ["One click right", "or circle once"] : ["Turn the wheel one", "click right, or", "circle the pad once"]
        case (.turn, .touchRing):
            compact ? ["Circle once more", "clockwise"] : ["Circle the pad once", "more, clockwise"]
        case (.turn, _):
            compact ? ["One full turn", "right"] : ["Turn the wheel one", "full turn right"]
        case (.press, _), (.done, _):
            ["Press the centre", "button"]
        }
    }

    /// A finding in words: steps per click (or the ring) and the direction.
    static func summary(_ result: CalibrationResult, compact: Bool) -> [String] {
        let direction = result.inverted ? "reversed" : "normal"
        let directionLine = result.inverted ? "Reversed direction" : "Normal direction"
        switch result.wheel {
        case .rotary(_, let steps, _):
            return compact
                ? ["\(steps)/click \(direction)"]
                : ["\(steps) step\(steps == 1 ? "" : "s") per click", directionLine]
        case .touchRing(let ring, _):
            let x = Int(ring.centerX.rounded())
            let y = Int(ring.centerY.rounded())
            let r = Int(ring.radius.rounded())
            return compact ? ["Ring: \(direction)"] : ["Ring \(x),\(y) r\(r)", directionLine]
        }
    }

    /// Why a step is asked again, in two short lines (at most 16 columns): what went wrong, what to do.
    static func lines(for problem: CalibrationProblem) -> [String] {
        switch problem {
        case .noInput: ["Nothing came", "Try again"]
        case .tooFewEvents: ["Too short", "Try again"]
        case .mixedDirections: ["Went both ways", "Turn one way"]
        case .bounce: ["Contact bounce", "Turn slowly"]
        case .unusualCount: ["Not one click", "Try again"]
        case .directionChanged: ["Wrong way round", "Turn clockwise"]
        case .turnMismatch: ["Not a full turn", "Try again"]
        case .lostEvents: ["Events lost", "Try again"]
        case .circleTooShort: ["Circle too short", "Go all round"]
        case .notACircle: ["Not a circle", "Follow the ring"]
        case .circleMoved: ["Circle moved", "Follow the ring"]
        case .severalKeys: ["Several keys", "Press only one"]
        }
    }

    /// The last message after the shell saved (or could not).
    static func lines(for outcome: WheelSaveOutcome) -> [String] {
        switch outcome {
        case .saved: ["Saved", "Wheel updated"]
        case .noConfigFile: ["No config file:", "on until restart"]
        case .notWritten: ["Can't save file:", "on until restart"]
        }
    }

    /// The hint for decoded input that no raw event explains (the control socket, a keyboard).
    static let useTheWheel = ["Use the wheel", "itself"]
}
