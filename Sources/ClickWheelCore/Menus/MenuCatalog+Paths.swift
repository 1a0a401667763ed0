/// The screens a script can open by name over the control socket (`screen NAME`): every fixed menu
/// and every list a fixed row leads to, found by walking the menu tree from the main menu with every
/// optional row shown, so a menu hidden by Settings → Main Menu or Music Menu stays reachable.
extension MenuCatalog {
    /// The screens from the main menu to the screen named `identifier` (`MenuCatalog.identifier(of:)`),
    /// main menu first; nil for a name no fixed row leads to (a screen of one artist, Now Playing, …).
    public static func path(to identifier: String, settings: Settings) -> [Destination]? {
        paths(settings: settings)[identifier]
    }

    /// Every name `path(to:settings:)` opens, sorted (for the error that names them).
    public static func openableScreens(settings: Settings) -> [String] {
        paths(settings: settings).keys.sorted()
    }

    /// Breadth first, so each name gets its shortest path; Artists follows `settings` (with or without
    /// the compilations' artists).
    static func paths(settings: Settings) -> [String: [Destination]] {
        let shown = allRowsShown(settings)
        var found: [String: [Destination]] = ["main": [.menu(.main)]]
        var queue: [[Destination]] = [[.menu(.main)]]
        while !queue.isEmpty {
            let path = queue.removeFirst()
            let items: [MenuItem]
            switch path.last! {
            case .menu(let menu):
                items = self.items(of: menu, settings: shown, hasCurrent: false, hasCompilations: true,
                    hasAudiobooks: true, hasSpeakers: true)
            case .list(let screen): items = screen.header
            default: items = []
            }
            for case .open(let next) in items.map(\.action) {
                if case .nowPlaying = next { continue }
                let name = identifier(of: next)
                guard found[name] == nil else { continue }
                found[name] = path + [next]
                queue.append(path + [next])
            }
        }
        return found
    }

    /// `settings` with every optional row of the main and Music menus shown.
    static func allRowsShown(_ settings: Settings) -> Settings {
        var s = settings
        s.showMusic = true
        s.showPodcasts = true
        s.showShuffleSongs = true
        s.hiddenMusicItems = []
        return s
    }
}
