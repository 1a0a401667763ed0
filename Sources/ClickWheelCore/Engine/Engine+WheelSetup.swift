/// Settings → Wheel in the engine: while `wheelSetup` is set it owns the screen and the input; the
/// menu stack underneath (Settings, cursor on Wheel) is where it returns. See `WheelSetup`.
extension Engine {
    /// Opens the flow and asks the shell for raw events.
    mutating func startWheelSetup() -> [Effect] {
        wheelSetup = WheelSetup(at: now)
        input.accelerator.reset()
        return [.rawInput(on: true)]
    }

    /// A raw event of an input device (only sent while measuring).
    mutating func wheelSetupRaw(_ event: RawInputEvent, from device: String) -> [Effect] {
        guard var setup = wheelSetup else { return [] }
        let change = setup.take(event, from: device)
        wheelSetup = setup
        return change == .none ? [] : [.rawInput(on: false)]
    }

    /// Ticks: steps settle, the flow times out, notices and the last message run out.
    mutating func wheelSetupTick() -> [Effect] {
        guard var setup = wheelSetup else { return [] }
        let change = setup.tick(at: now)
        wheelSetup = setup.isOver(at: now) ? nil : setup
        return change == .none ? [] : [.rawInput(on: false)]
    }

    /// Decoded input during the flow: Menu cancels; on the summary the wheel picks Save or Cancel and
    /// Select takes it; while measuring, the decoded echo of raw events is dropped and other input
    /// (the control socket, a keyboard) gets the hint to use the wheel itself.
    mutating func wheelSetupInput(_ input: InputEvent) -> [Effect] {
        guard var setup = wheelSetup else { return [] }
        var gestures: [ButtonGestures.Gesture] = []
        let time: Timestamp
        switch input {
        case .wheel(let steps, let t):
            time = t
            switch setup.phase {
            case .measuring:
                if !setup.isEcho(t) { setup.show(WheelSetup.useTheWheel, at: now) }
            case .summary:
                let moved = setup.moveChoice(by: steps)
                wheelSetup = setup
                return moved && settings.clicker != .off ? [.click(settings.clicker)] : []
            case .saving, .finished:
                break
            }
        case .button(let button, let phase, let t):
            time = t
            // Through the recogniser as always, so its state stays right for after the flow.
            gestures = self.input.gestures.feed(button, phase, at: now)
        }
        wheelSetup = setup
        var effects: [Effect] = []
        for gesture in gestures {
            switch gesture {
            case .click(.menu):
                return cancelWheelSetup()
            case .click(.select):
                effects += wheelSetupSelect(echo: wheelSetup?.isEcho(time) ?? false)
            case .click, .hold, .repeatHold, .released:
                break
            }
        }
        return effects
    }

    /// Select: takes the summary's choice, dismisses the last message, or (not from the wheel's own
    /// hardware, while measuring) says to use the wheel itself.
    private mutating func wheelSetupSelect(echo: Bool) -> [Effect] {
        guard var setup = wheelSetup else { return [] }
        switch setup.phase {
        case .measuring:
            if !echo { setup.show(WheelSetup.useTheWheel, at: now) }
            wheelSetup = setup
            return []
        case .summary(let result, let save):
            guard save else { return cancelWheelSetup() }
            setup.saving(result)
            wheelSetup = setup
            return [.saveWheel(result)]
        case .saving:
            return []
        case .finished:
            wheelSetup = nil
            return []
        }
    }

    /// Menu or Cancel: back to Settings, nothing changed.
    mutating func cancelWheelSetup() -> [Effect] {
        guard let setup = wheelSetup else { return [] }
        wheelSetup = nil
        screen.selectedSince = now
        return setup.isMeasuring ? [.rawInput(on: false)] : []
    }

    /// The shell's answer to `Effect.saveWheel`: the last message says what happened.
    mutating func wheelSetupSaved(_ outcome: WheelSaveOutcome) {
        guard var setup = wheelSetup, case .saving = setup.phase else { return }
        setup.finish(WheelSetup.lines(for: outcome), at: now)
        wheelSetup = setup
    }
}
