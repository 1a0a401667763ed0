import ClickWheelConfig
import ControlServer
import Logging
import MPDProtocol
import Playback
import Synchronization

/// The configured outputs (`output: [pulse, snapcast]`): made for the audio thread, listed and switched for
/// MPD clients.
///
/// Thread rules: any thread; the enabled flags behind a `Mutex`, each switch posted to the audio thread in
/// the order it was made.
final class ConfiguredOutputs: OutputSwitch {
    private let player: AudioPlayer
    private let state: Mutex<[OutputState]>
    /// Tells idle clients of the `output` subsystem (set once the control server exists).
    let notify = Mutex<(@Sendable (MPDIdleSubsystems) -> Void)?>(nil)

    init(_ c: ServiceConfig, player: AudioPlayer) {
        self.player = player
        state = Mutex(Self.states(c))
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

    func outputs() -> [OutputState] { state.withLock { $0 } }

    func set(_ id: Int, enabled: Bool?) -> Bool {
        let change: Bool? = state.withLock { list in
            guard list.indices.contains(id) else { return nil }
            let on = enabled ?? !list[id].enabled
            guard on != list[id].enabled else { return false }
            list[id].enabled = on
            // Posted under the lock: two clients' switches reach the audio thread in the order they were made.
            player.setOutputEnabled(id, on)
            return true
        }
        guard let change else { return false }
        if change, let tell = notify.withLock({ $0 }) { tell(.output) }
        return true
    }
}
