/// Keymaps as tables per context with fallback, after Rockbox's `keymap-ipod.c`.
///
/// A context looks its trigger up in its own table first, then in its parent's, ending at `global`;
/// `locked` has no parent, so the hold switch swallows everything it does not list.
public struct Keymap: Hashable, Sendable {
    /// Where the user is, as far as keys are concerned.
    public enum Context: Hashable, Sendable, CaseIterable {
        case global, menu, nowPlaying, scrubbing, nowPlayingSetting, search, locked

        /// The context consulted when this one has no entry.
        public var parent: Context? {
            switch self {
            case .global, .locked: nil
            case .menu, .nowPlaying: .global
            case .search: .menu
            case .scrubbing, .nowPlayingSetting: .nowPlaying
            }
        }
    }

    /// What happened, without counts or times.
    public enum Trigger: Hashable, Sendable {
        case wheel
        case click(Button)
        case hold(Button)
        case repeatHold(Button)
        case released(Button)
    }

    /// What it means.
    public enum Action: Hashable, Sendable {
        /// The wheel moves the cursor (accelerated).
        case scroll
        /// The wheel changes the volume.
        case volume
        /// The wheel seeks in the current track (accelerated).
        case scrub
        /// The wheel changes the value on screen (a Now Playing setting or rating).
        case adjust
        case select, contextMenu, back, mainMenu, playPause, next, previous
        case seekForward, seekBackward, endSeek
        case cycleNowPlaying, toggleLock
        /// Search: delete the last letter.
        case deleteLetter
    }

    public var tables: [Context: [Trigger: Action]]

    public init(tables: [Context: [Trigger: Action]]) {
        self.tables = tables
    }

    /// The action for `trigger` in `context`, following the fallback chain; nil when unmapped.
    public func action(for trigger: Trigger, in context: Context) -> Action? {
        var c: Context? = context
        while let current = c {
            if let action = tables[current]?[trigger] { return action }
            c = current.parent
        }
        return nil
    }

    /// The iPod's layout: menu backs out, select selects (hold: context menu), the wheel scrolls
    /// lists and sets the volume on Now Playing, where centre clicks cycle its modes; holding
    /// next/previous seeks, holding play/pause toggles the software hold switch. On Search's letter
    /// line the wheel picks letters and previous deletes one.
    public static let ipod = Keymap(tables: [
        .global: [
            .wheel: .scroll,
            .click(.menu): .back, .hold(.menu): .mainMenu,
            .click(.select): .select, .hold(.select): .contextMenu,
            .click(.playPause): .playPause, .hold(.playPause): .toggleLock,
            .click(.next): .next, .click(.previous): .previous,
            .repeatHold(.next): .seekForward, .repeatHold(.previous): .seekBackward,
            .released(.next): .endSeek, .released(.previous): .endSeek,
        ],
        .menu: [:],
        .nowPlaying: [.wheel: .volume, .click(.select): .cycleNowPlaying],
        .scrubbing: [.wheel: .scrub],
        .nowPlayingSetting: [.wheel: .adjust],
        .search: [.wheel: .adjust, .click(.previous): .deleteLetter],
        .locked: [.hold(.playPause): .toggleLock],
    ])
}
