/// Input dispatch: wheel steps and gestures become actions through the keymap of the current context.
extension Engine {
    /// The keymap context of what is on screen.
    public var context: Keymap.Context {
        // A ringing alarm answers Select, Menu and Play/Pause even with the hold switch on.
        if alarmClock.ringing != nil { return .menu }
        if input.locked { return .locked }
        if searchState != nil && top.cursor == 0 { return .search }
        guard top.destination == .nowPlaying else { return .menu }
        switch screen.nowPlayingMode {
        case .normal: return .nowPlaying
        case .scrubbing: return .scrubbing
        case .shuffle, .repeatMode, .rating: return .nowPlayingSetting
        }
    }

    mutating func handleInput(_ input: InputEvent) -> [Effect] {
        if wheelSetup != nil { return wheelSetupInput(input) }
        switch input {
        case .wheel(let steps, _):
            if alarmClock.ringing != nil { return [] }
            if case .alarmTime = top.destination, !self.input.locked { return adjustAlarmTime(by: steps) }
            if case .speakerVolume(let id) = top.destination, !self.input.locked { return adjustRoomVolume(id, by: steps) }
            guard let action = configuration.keymap.action(for: .wheel, in: context) else {
                if self.input.locked { screen.lockNoticeUntil = now.adding(ms: 2000) }
                return []
            }
            return wheel(steps, action: action)
        case .button(let button, let phase, _):
            return perform(self.input.gestures.feed(button, phase, at: now))
        }
    }

    /// Carries out recognised gestures.
    mutating func perform(_ recognised: [ButtonGestures.Gesture]) -> [Effect] {
        var effects: [Effect] = []
        for gesture in recognised {
            let trigger: Keymap.Trigger
            var repeatCount = 0
            switch gesture {
            case .click(let b): trigger = .click(b)
            case .hold(let b): trigger = .hold(b)
            case .repeatHold(let b, let count):
                trigger = .repeatHold(b)
                repeatCount = count
            case .released(let b): trigger = .released(b)
            }
            guard let action = configuration.keymap.action(for: trigger, in: context) else {
                if input.locked, case .click = trigger { screen.lockNoticeUntil = now.adding(ms: 2000) }
                continue
            }
            effects += perform(action, repeatCount: repeatCount)
        }
        return effects
    }

    private mutating func wheel(_ steps: Int, action: Keymap.Action) -> [Effect] {
        switch action {
        case .scroll: return scroll(by: input.accelerator.items(for: steps, at: now))
        case .volume: return changeVolume(by: steps)
        case .scrub: return scrub(by: input.accelerator.items(for: steps, at: now))
        case .adjust: return searchState != nil ? movePicker(by: steps) : adjustNowPlaying(by: steps)
        default: return perform(action, repeatCount: 0)
        }
    }

    mutating func perform(_ action: Keymap.Action, repeatCount: Int) -> [Effect] {
        if let effects = ringingInput(action) { return effects }
        switch action {
        case .scroll, .volume, .scrub, .adjust: return []
        case .select: return select()
        case .contextMenu: return openContextMenu()
        case .back: return back()
        case .mainMenu:
            stack.removeSubrange(1...)
            leftNowPlaying()
            clampCursor()
            return []
        case .playPause: return playPause()
        case .next: return nextChapterOrTrack()
        case .previous: return previousChapterOrTrack()
        case .seekForward: return seek(direction: 1, repeatCount: repeatCount)
        case .seekBackward: return seek(direction: -1, repeatCount: repeatCount)
        case .endSeek: return []
        case .deleteLetter: return deleteLetter()
        case .cycleNowPlaying:
            screen.nowPlayingMode = screen.nowPlayingMode.next
            input.accelerator.reset()
            return []
        case .toggleLock:
            input.locked.toggle()
            screen.lockNoticeUntil = input.locked ? now.adding(ms: 2000) : nil
            return []
        }
    }
}
