import ClickWheelConfig
import ClickWheelCore
import Devices
import Foundation
import Logging

/// Builds the display and the input sources the configuration names.
enum DeviceSetup {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The display for `config` (nil for `none`); the terminal one shows `note` under the box.
    static func display(_ config: ServiceConfig, interactive: Bool, note: String, logger: Logger) throws -> (any TextDisplay)? {
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
                return try LCDprocDisplay(host: host, port: port, expected: config.lcd, logger: logger)
            } catch {
                throw Failure(description: "cannot reach LCDd at \(config.lcdproc): \(error)")
            }
        case .hd44780:
            do {
                let sink = try I2CByteSink(bus: config.i2cBus, address: config.i2cAddress)
                return try HD44780Display(sink: sink, geometry: config.lcd, logger: logger)
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
        var profile = EvdevProfile(
            stepsPerDetent: config.stepsPerDetent, inverted: config.invertWheel, degreesPerStep: config.degreesPerStep,
            touchRing: config.touchRing)
        if let key = config.selectKey { profile.buttons[key] = .select }
        let only: [EvdevProfile.Match] = names.contains("auto") ? [] : paths.map { .path($0) }
        return EvdevInput(configuration: .init(only: only, profiles: [profile]), logger: logger)
    }
}
