/// Builds the view of what is on screen, for the renderer.
extension Engine {
    /// The view of the current screen at the current time.
    mutating func view() -> ScreenView {
        if screen.goodbye { return .text(title: MenuCatalog.title(of: .main), lines: ["Goodbye"]) }
        if let until = screen.sleepNoticeUntil, now < until { return .text(title: "Sleep Timer", lines: ["Paused"]) }
        if let ringing = alarmClock.ringing { return ringingView(ringing) }
        if let wheelSetup { return wheelSetup.view(compact: configuration.geometry.rows < 4, now: now) }
        if input.locked, let until = screen.lockNoticeUntil, now < until {
            return .text(title: "Locked", lines: ["Hold Play to unlock"])
        }
        let icons = StatusIcons(status: player.hasCurrent ? player.status : .stopped, locked: input.locked)
        let page = top
        if page.destination == .nowPlaying {
            return nowPlayingView(icons: icons)
        }
        if page.destination == .clock { return .clock(clockView()) }
        if case .alarmTime(let edit) = page.destination { return alarmTimeView(edit) }
        if case .speakerVolume(let id) = page.destination { return speakerVolumeView(id) }
        let total = lineCount(of: page.destination)
        var lines: [ListLine] = []
        let visible = configuration.geometry.listRows
        var index = page.top
        while index < min(total, page.top + visible) {
            lines.append(line(index, of: page.destination) ?? ListLine(""))
            index += 1
        }
        var letter: Character?
        if let until = screen.letterUntil, now < until, case .list(let screen) = page.destination,
            page.cursor >= screen.header.count
        {
            letter = row(page.cursor - screen.header.count, of: screen.source)?.initial
        }
        return .list(
            ListView(
                title: title(of: page.destination), icons: icons, total: total, cursor: page.cursor, top: page.top,
                lines: lines, emptyText: emptyText(of: page.destination), selectedSince: screen.selectedSince,
                letter: letter))
    }

    func title(of destination: Destination) -> String {
        switch destination {
        case .menu(let id): MenuCatalog.title(of: id)
        case .list(let screen): screen.title
        case .context(let target): target.row.title
        case .rating: "Rate Song"
        case .nowPlaying: "Now Playing"
        case .search: "Search"
        case .clock: "Clock"
        case .alarmTime: "Alarm Time"
        case .speakerVolume(let id): speakerVolumeTitle(id)
        }
    }

    private func emptyText(of destination: Destination) -> String {
        guard case .list(let screen) = destination else { return "" }
        if let scanCount = caches.scanCount { return "Scanning… \(scanCount)" }
        if rows.lastError != nil { return "Library error" }
        return MenuCatalog.emptyText(of: screen.source)
    }

    private mutating func nowPlayingView(icons: StatusIcons) -> ScreenView {
        guard let current = player.current, player.hasCurrent else {
            return .text(title: "Now Playing", lines: ["Nothing playing"])
        }
        let track = loadCurrentTrack()
        var overlay: NowPlayingView.Overlay?
        switch screen.nowPlayingMode {
        case .normal:
            if let until = screen.volumeShownUntil, now < until { overlay = .volume(settings.volume) }
        case .scrubbing:
            overlay = .scrubbing
        case .shuffle:
            overlay = .setting(name: "Shuffle", value: SettingKey.shuffle.choices[settings.shuffle.rawValue])
        case .repeatMode:
            overlay = .setting(name: "Repeat", value: SettingKey.repeatMode.choices[settings.repeatMode.rawValue])
        case .rating:
            overlay = .rating(track?.rating ?? 0)
        }
        return .nowPlaying(
            NowPlayingView(
                position: current + 1, count: player.queue.count, title: track?.title ?? "Unknown track",
                artist: track?.artist ?? "", album: track?.album ?? "", elapsedMS: player.elapsedMS,
                durationMS: track?.durationMS ?? 0, icons: icons, shuffle: settings.shuffle,
                repeatMode: settings.repeatMode, overlay: overlay, since: screen.nowPlayingSince,
                chapter: currentChapterTitle(),
                // Paused or stopped nothing is asked of the outputs, so nothing has failed (as MPD, which
                // finds a failed output only when it opens one to play).
                noOutput: player.status == .playing ? player.outputProblem?.outputs : nil))
    }
}
