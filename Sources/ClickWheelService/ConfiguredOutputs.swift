import ClickWheelConfig
import ClickWheelCore
import ControlServer
import Logging
import MPDProtocol
import Playback
import Snapcast
import Synchronization

/// The configured outputs (`output: [pulse, snapcast]`): made for the audio thread, listed and switched for
/// MPD clients; after them, the Snapcast rooms (`SnapcastControl`), which MPD clients switch as outputs too
/// (on = not muted), and which Main menu → Speakers shows with This Pi (the `pulse` output).
///
/// A room's MPD id is its place after the configured outputs in the order rooms were first seen since the
/// start: a room the server forgets stays listed (off), so the ids of the others never move.
///
/// Thread rules: any thread; the enabled flags and the rooms behind a `Mutex`, each switch posted to the
/// audio thread in the order it was made.
final class ConfiguredOutputs: OutputSwitch {
    private struct State {
        var configured: [OutputState]
        /// Client ids in the order first seen (MPD ids follow it).
        var roomOrder: [String] = []
        /// Every room seen, as last seen.
        var known: [String: SpeakerRoom] = [:]
        /// The rooms the server lists now, in its order.
        var current: [SpeakerRoom] = []
        var server = Speakers.Server.connecting

        var roomOutputs: [OutputState] {
            roomOrder.compactMap { known[$0] }.map { OutputState(name: $0.name, plugin: "snapcast", enabled: $0.on) }
        }
    }

    private let player: AudioPlayer
    private let state: Mutex<State>
    /// The `pulse` output's place in the list (This Pi), nil when there is none.
    private let thisPi: Int?
    /// A callback kept behind a lock, in a struct: a bare function value read through `Mutex.withLock`'s
    /// `inout` comes back wrapped in two more thunks each time (see `MessageBoard.Sink`).
    struct Callback<Value>: Sendable {
        let call: @Sendable (Value) -> Void
    }
    /// Tells idle clients of the `output` subsystem (set once the control server exists).
    let notify = Mutex<Callback<MPDIdleSubsystems>?>(nil)
    /// Tells the engine what Speakers shows (set once the engine loop exists; nil: no Snapcast control).
    let onSpeakers = Mutex<Callback<Speakers>?>(nil)
    /// The Snapcast control client (set once, before the service runs).
    let control = Mutex<SnapcastControl?>(nil)

    init(_ c: ServiceConfig, player: AudioPlayer) {
        self.player = player
        state = Mutex(State(configured: Self.states(c)))
        thisPi = c.outputs.firstIndex(of: .pulse)
    }

    /// The outputs for the audio thread, in configuration order, all enabled at start.
    static func descriptors(_ c: ServiceConfig, logger: Logger) -> [MultiOutput.Descriptor] {
        c.outputs.map { o in
            switch o {
            case .pulse:
                return MultiOutput.Descriptor(name: name(o), plugin: "pulse") { PulseAudioOutput() }
            case .null:
                return MultiOutput.Descriptor(name: name(o), plugin: "null") { NullAudioOutput() }
            case .snapcast:
                // The config loader checked the form; an unparsable one cannot get here.
                let target = SnapcastTarget(c.snapcast) ?? .tcp(host: "127.0.0.1", port: 4953)
                return MultiOutput.Descriptor(name: name(o), plugin: "snapcast") {
                    SnapcastOutput(target: target, logger: logger)
                }
            }
        }
    }

    static func states(_ c: ServiceConfig) -> [OutputState] {
        c.outputs.map { OutputState(name: name($0), plugin: $0.rawValue, enabled: true) }
    }

    /// What MPD clients and the logs call each kind.
    static func name(_ o: ServiceConfig.Output) -> String {
        switch o {
        case .pulse: "This Pi"
        case .null: "Null Output"
        case .snapcast: "Snapcast"
        }
    }

    func outputs() -> [OutputState] { state.withLock { $0.configured + $0.roomOutputs } }

    func set(_ id: Int, enabled: Bool?) -> Bool {
        let change: Bool? = state.withLock { s in
            if id >= s.configured.count {
                // A room: muted or unmuted by the control client, which tells `roomsChanged` at once.
                let index = id - s.configured.count
                guard s.roomOrder.indices.contains(index), let room = s.known[s.roomOrder[index]] else { return nil }
                let on = enabled ?? !room.on
                if on != room.on { control.withLock { $0 }?.setRoom(room.id, on: on) }
                return false
            }
            guard s.configured.indices.contains(id) else { return nil }
            let on = enabled ?? !s.configured[id].enabled
            guard on != s.configured[id].enabled else { return false }
            s.configured[id].enabled = on
            // Posted under the lock: two clients' switches reach the audio thread in the order they were made.
            player.setOutputEnabled(id, on)
            return true
        }
        guard let change else { return false }
        if change {
            if let tell = notify.withLock({ $0 }) { tell.call(.output) }
            publishSpeakers()
        }
        return true
    }

    /// What the Speakers menu asked for.
    func perform(_ command: SpeakerCommand) {
        switch command {
        case .setRoom(let id, let on): control.withLock { $0 }?.setRoom(id, on: on)
        case .setVolume(let id, let percent): control.withLock { $0 }?.setVolume(id, percent: percent)
        case .setThisPi(let on): if let thisPi { _ = set(thisPi, enabled: on) }
        }
    }

    /// The control client's news: kept, MPD's idle `output` told when the outputs list changed, the
    /// engine told in every case (a volume shows in Speakers).
    func roomsChanged(_ rooms: [SpeakerRoom], server: Speakers.Server) {
        let listChanged = state.withLock { s in
            let before = s.roomOutputs
            for room in rooms {
                if s.known[room.id] == nil { s.roomOrder.append(room.id) }
                s.known[room.id] = room
            }
            s.current = rooms
            s.server = server
            return s.roomOutputs != before
        }
        if listChanged, let tell = notify.withLock({ $0 }) { tell.call(.output) }
        publishSpeakers()
    }

    /// Sends the engine what Speakers shows now.
    func publishSpeakers() {
        guard let tell = onSpeakers.withLock({ $0 }) else { return }
        let speakers = state.withLock { s in
            Speakers(server: s.server, rooms: s.current, thisPi: thisPi.map { s.configured[$0].enabled })
        }
        tell.call(speakers)
    }
}
