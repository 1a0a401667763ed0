public import ClickWheelCore
import Foundation

/// What a wheel calibration means for the configuration, shared by `clickwheel calibrate --write`
/// and Settings → Wheel in the running service, so both write the same keys the same way:
/// `steps_per_detent` (rotary) or `touch_ring` and `degrees_per_step` (touch ring), `invert_wheel`,
/// and `select_key` when Select was a key.
public enum CalibrationSettings {
    /// The configuration keys a result sets, in the order they are printed and appended;
    /// `keyName` names a key code for the comment of `select_key` (e.g. KEY_ENTER).
    public static func settings(
        for result: CalibrationResult, keyName: (UInt16) -> String = { "key code \($0)" }
    ) -> [ConfigFileEditor.Setting] {
        var out: [ConfigFileEditor.Setting] = []
        switch result.wheel {
        case .rotary(_, let steps, _):
            out.append(.init(key: "steps_per_detent", value: String(steps), comment: "events per detent (calibrated)"))
        case .touchRing(let ring, let degrees):
            out.append(
                .init(
                    key: "touch_ring", value: "\(units(ring.centerX)),\(units(ring.centerY)),\(units(ring.radius))",
                    comment: "centre x, y and radius in device units (calibrated)"))
            out.append(.init(key: "degrees_per_step", value: number(degrees), comment: "touch ring: degrees per step"))
        }
        out.append(
            .init(key: "invert_wheel", value: result.inverted ? "true" : "false", comment: "clockwise moves down"))
        if let key = result.selectKey {
            out.append(.init(key: "select_key", value: String(key), comment: keyName(key)))
        }
        return out
    }

    /// Sets the result's keys in the file at `path` (comments and other keys kept; a missing file is
    /// created) and returns them. The file is replaced atomically, or left as it was on failure.
    @discardableResult
    public static func write(
        _ result: CalibrationResult, toFile path: String, keyName: (UInt16) -> String = { "key code \($0)" }
    ) throws(ConfigFileEditor.Failure) -> [ConfigFileEditor.Setting] {
        let settings = settings(for: result, keyName: keyName)
        let text: String
        if FileManager.default.fileExists(atPath: path) {
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ConfigFileEditor.Failure("cannot read \(path): \(error.localizedDescription)")
            }
        } else {
            text = ""
        }
        let edited = try ConfigFileEditor.apply(settings, to: text, fileName: (path as NSString).lastPathComponent)
        try ConfigFileEditor.write(edited, to: path)
        return settings
    }

    /// Device units, whole (a touchpad reports whole units; the fit's fraction is noise).
    public static func units(_ v: Double) -> String { String(Int(v.rounded())) }

    /// A number with at most one decimal and no trailing ".0".
    public static func number(_ v: Double) -> String {
        let tenths = (v * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}

extension ServiceConfig {
    /// This configuration with a calibration's findings, as the file would give them after
    /// `CalibrationSettings.write` (the values pass through the same text, so they round the same).
    public func calibrated(by result: CalibrationResult) -> ServiceConfig {
        var c = self
        for setting in CalibrationSettings.settings(for: result) {
            if let problem = ConfigKey.byName[setting.key]?.apply(&c, setting.value) {
                preconditionFailure("calibration wrote an invalid \(setting.key): \(problem)")
            }
        }
        return c
    }
}
