/// Main menu → Speakers: the Snapcast rooms and "This Pi", shown when a Snapcast server is configured
/// (the service then sends `Event.speakers`).
///
/// - One row per room, its name and state at the right: the volume ("40%") when on, "Off" when muted,
///   "Offline" when its snapclient is not connected; "This Pi" (the local output) first, "On"/"Off".
/// - Select on a row switches it on or off (a room is muted or unmuted; This Pi's output is switched as
///   MPD's `toggleoutput` does).
/// - Hold Select on a room opens its volume screen: the wheel sets the volume (a bar, as Now Playing's),
///   Select switches the room on or off, Menu goes back. The wheel keeps scrolling in the list, as in
///   every iPod list: a row that took the wheel for its volume would trap the cursor on it. Holding
///   Select is the iPod's "more about this row" (its context menus), and the volume bar is Now Playing's.
/// - The menu says when the server does not answer ("Server offline") or has no clients ("No Rooms").
///
/// A change asked for here shows at once (the state is updated in place) and is then confirmed or
/// corrected by the server's next notification.
extension Engine {
    /// The Speakers rows.
    func speakerItems() -> [MenuItem] {
        guard let speakers else { return [] }
        var items: [MenuItem] = []
        if speakers.thisPi != nil { items.append(MenuItem("This Pi", .thisPi)) }
        switch speakers.server {
        case .connecting: items.append(MenuItem("Connecting…", .none))
        case .offline: items.append(MenuItem("Server offline", .none))
        case .online where speakers.rooms.isEmpty: items.append(MenuItem("No Rooms", .none))
        case .online: items += speakers.rooms.map { MenuItem($0.name, .speakerRoom($0.id)) }
        }
        return items
    }

    /// The value at the right of a Speakers row (nil for other rows).
    func speakerTrailing(_ action: MenuAction) -> String? {
        switch action {
        case .thisPi:
            return (speakers?.thisPi ?? false) ? "On" : "Off"
        case .speakerRoom(let id):
            guard let room = speakers?.room(id) else { return nil }
            if !room.connected { return "Offline" }
            return room.muted ? "Off" : "\(room.volume)%"
        default:
            return nil
        }
    }

    /// New state from the service: kept, and the cursor kept on its row.
    mutating func speakersChanged(_ new: Speakers) {
        let wasOnRoom = top.destination == .menu(.speakers) ? speakerRoomID(at: top.cursor) : nil
        speakers = new
        switch top.destination {
        case .menu(.speakers):
            if let id = wasOnRoom, let index = speakerItems().firstIndex(where: { $0.action == .speakerRoom(id) }) {
                stack[stack.count - 1].cursor = index
            }
            clampCursor()
        case .menu(.main):
            clampCursor()
        default:
            break
        }
    }

    /// The room id of Speakers row `index` (nil for This Pi and the notices).
    func speakerRoomID(at index: Int) -> String? {
        let items = speakerItems()
        guard items.indices.contains(index), case .speakerRoom(let id) = items[index].action else { return nil }
        return id
    }

    /// Select on a room (in the list or on its volume screen): on or off.
    mutating func toggleRoom(_ id: String) -> [Effect] {
        guard var speakers, let index = speakers.rooms.firstIndex(where: { $0.id == id }) else { return [] }
        speakers.rooms[index].muted.toggle()
        self.speakers = speakers
        return [.speakers(.setRoom(id: id, on: speakers.rooms[index].on))]
    }

    /// Select on This Pi.
    mutating func toggleThisPi() -> [Effect] {
        guard let on = speakers?.thisPi else { return [] }
        speakers?.thisPi = !on
        return [.speakers(.setThisPi(on: !on))]
    }

    /// Hold Select on a room's row: its volume screen.
    mutating func openSpeakerVolume() -> Bool {
        guard top.destination == .menu(.speakers), let id = speakerRoomID(at: top.cursor) else { return false }
        push(.speakerVolume(id))
        return true
    }

    /// The wheel on a room's volume screen: a point per step.
    mutating func adjustRoomVolume(_ id: String, by steps: Int) -> [Effect] {
        guard var speakers, let index = speakers.rooms.firstIndex(where: { $0.id == id }) else { return [] }
        let volume = max(0, min(100, speakers.rooms[index].volume + steps))
        guard volume != speakers.rooms[index].volume else { return [] }
        speakers.rooms[index].volume = volume
        self.speakers = speakers
        var effects: [Effect] = [.speakers(.setVolume(id: id, percent: volume))]
        if settings.clicker != .off { effects.append(.click(settings.clicker)) }
        return effects
    }

    /// A room's volume screen: its name and state on top, the volume bar below.
    func speakerVolumeView(_ id: String) -> ScreenView {
        guard let room = speakers?.room(id) else { return .text(title: "Speakers", lines: ["Room gone"]) }
        let state = !room.connected ? "Offline" : room.muted ? "Off" : "\(room.volume)%"
        return .level(LevelView(title: room.name, value: state, fraction: Double(room.volume) / 100))
    }

    /// The title of a room's volume screen.
    func speakerVolumeTitle(_ id: String) -> String { speakers?.room(id)?.name ?? "Speakers" }
}
