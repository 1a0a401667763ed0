public import ClickWheelConfig
public import ClickWheelCore
import Devices
import Foundation
public import Logging

/// Builds the display and the input sources the configuration names.
public enum DeviceSetup {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The display for `config` (nil for `none`); the terminal one shows `note` under the box.
    public static func display(_ config: ServiceConfig, interactive: Bool, note: String, logger: Logger) throws -> (any TextDisplay)? {
        switch config.display ?? (interactive ? .terminal : .none) {
        case .none:
            return nil
        case .terminal:
            return try TerminalDisplay(geometry: config.lcd, note: note)
        case .lcdproc:
            let parts = config.lcdproc.split(separator: ":")
            let host = parts.dropLast().joined(separator: ":")
            let port = Int(parts.last ?? "") ?? 13666
            do {
                let client = try LCDprocDisplay(host: host, port: port, expected: config.lcd, logger: logger)
                return try ThreadedDisplay(client, name: "lcdproc", retryMS: 250, logger: logger)
            } catch {
                throw Failure(description: "cannot reach LCDd at \(config.lcdproc): \(error)")
            }
        case .hd44780:
            do {
                let sink = try I2CByteSink(bus: config.i2cBus, address: config.i2cAddress)
                return try ThreadedDisplay(hd44780: sink, geometry: config.lcd, logger: logger)
            } catch {
                throw Failure(description: "cannot open the HD44780 on \(config.i2cBus) at 0x\(String(config.i2cAddress, radix: 16)): \(error)")
            }
        }
    }

    /// The evdev part of the input configuration: auto (every device that fits) or named devices.
    static func evdev(_ config: ServiceConfig, logger: Logger) -> EvdevInput? {
        let names = config.input.isEmpty ? ["auto"] : config.input
        let paths = names.filter { $0.hasPrefix("/dev/input/") }
        guard names.contains("auto") || !paths.isEmpty else { return nil }
        let profile = profile(config)
        let only: [EvdevProfile.Match] = names.contains("auto") ? [] : paths.map { .path($0) }
        return EvdevInput(configuration: .init(only: only, profiles: [profile]), logger: logger)
    }
}

extension DeviceSetup {
    /// The evdev profile the configuration gives every device (also what a calibration applies live).
    static func profile(_ config: ServiceConfig) -> EvdevProfile {
        var profile = EvdevProfile(
            stepsPerDetent: config.stepsPerDetent, inverted: config.invertWheel, degreesPerStep: config.degreesPerStep,
            touchRing: config.touchRing)
        if let key = config.selectKey { profile.buttons[key] = .select }
        return profile
    }
}

/// Settings → Wheel in the running service: raw events from the evdev readers while the engine
/// measures, and Save — the keys of `clickwheel calibrate --write` set in the configuration file
/// (`CalibrationSettings`, comments kept) and the new profile applied to the open devices at once.
///
/// Saving never fails as far as the wheel goes: without a file, or when it cannot be written, the
/// profile still applies until the service restarts; the outcome says which (the screen tells the
/// user) and one log line says why. Thread rules: called on the engine loop's queue.
/// `@unchecked Sendable`: it is used on the engine loop's queue only; it is Sendable to be a field of the loop.
final class WheelCalibrationLink: @unchecked Sendable {
    private let evdev: EvdevInput?
    /// The configuration file the service read; nil when it runs without one.
    let configFile: String?
    private let logger: Logger
    /// The running configuration, with the calibrations saved since the start.
    private(set) var config: ServiceConfig

    init(evdev: EvdevInput?, config: ServiceConfig, configFile: String?, logger: Logger) {
        self.evdev = evdev
        self.config = config
        self.configFile = configFile
        self.logger = logger
    }

    /// Sends every raw event to `post` (with its device node), or stops (nil).
    func forwardRawEvents(to post: (@Sendable (String, RawInputEvent) -> Void)?) {
        evdev?.forwardRawEvents(to: post)
    }

    /// SIGHUP: the wheel keys of the configuration read again go to the open devices.
    func reload(_ new: ServiceConfig) {
        config.stepsPerDetent = new.stepsPerDetent
        config.degreesPerStep = new.degreesPerStep
        config.invertWheel = new.invertWheel
        config.touchRing = new.touchRing
        config.selectKey = new.selectKey
        evdev?.apply(profiles: [DeviceSetup.profile(config)])
    }

    /// Writes the findings into the configuration file and applies them to the open devices.
    func save(_ result: CalibrationResult) -> WheelSaveOutcome {
        config = config.calibrated(by: result)
        evdev?.apply(profiles: [DeviceSetup.profile(config)])
        let keys = CalibrationSettings.settings(for: result).map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        guard let file = configFile else {
            logger.warning("wheel: calibrated (\(keys)); no configuration file to save it in, applied until restart")
            return .noConfigFile
        }
        do {
            try CalibrationSettings.write(result, toFile: file) { InputDebugger.codeName(type: EvdevCode.evKey, code: $0) }
        } catch {
            logger.error("wheel: calibrated (\(keys)) but cannot save it in \(file), applied until restart: \(error)")
            return .notWritten
        }
        logger.notice("wheel: calibrated and saved in \(file) (\(keys))")
        return .saved
    }
}
