import ClickWheelCore
import Foundation

/// The configuration keys, declared once: the YAML key, the environment variable, and how a text
/// value is checked and stored. The file, the environment and the flags all go through these.
struct ConfigKey: Sendable {
    let name: String
    /// Stores `value` (already a scalar string; lists arrive joined by ",") or says what is wrong.
    let apply: @Sendable (inout ServiceConfig, String) -> String?
    /// True for keys that take a list (`input`).
    var isList = false

    /// `CLICKWHEEL_` and the name in capitals, a section's dot as `_` (`CLICKWHEEL_PODCASTS_KEEP`).
    var environmentVariable: String { "CLICKWHEEL_" + name.uppercased().replacingOccurrences(of: ".", with: "_") }

    static let all: [ConfigKey] = [
        ConfigKey(name: "music") { c, v in nonEmpty(v) { c.music = $0 } },
        ConfigKey(name: "db") { c, v in nonEmpty(v) { c.db = $0 } },
        ConfigKey(name: "socket") { c, v in nonEmpty(v) { c.socket = $0 } },
        ConfigKey(name: "display") { c, v in
            guard let d = ServiceConfig.Display(rawValue: v) else { return "must be one of terminal, lcdproc, hd44780, none" }
            c.display = d
            return nil
        },
        ConfigKey(name: "lcd") { c, v in
            guard let g = DisplayGeometry(v) else { return "must look like 16x2 or 20x4 (at least 8x1)" }
            c.lcd = g
            return nil
        },
        ConfigKey(name: "lcdproc") { c, v in hostPort(v, example: "127.0.0.1:13666") { c.lcdproc = $0 } },
        ConfigKey(name: "i2c_bus") { c, v in
            guard v.hasPrefix("/dev/") else { return "must be a device path such as /dev/i2c-1" }
            c.i2cBus = v
            return nil
        },
        ConfigKey(name: "i2c_address") { c, v in
            let n = v.lowercased().hasPrefix("0x") ? Int(v.dropFirst(2), radix: 16) : Int(v)
            guard let n, (0x03...0x77).contains(n) else { return "must be a 7-bit I2C address, 0x03–0x77" }
            c.i2cAddress = n
            return nil
        },
        ConfigKey(name: "input", apply: { c, v in
            let items = v.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty }
            for item in items where !["auto", "keyboard", "none"].contains(item) && !item.hasPrefix("/dev/input/") {
                return "'\(item)' is not auto, keyboard, none or a /dev/input/… path"
            }
            c.input = items
            return nil
        }, isList: true),
        ConfigKey(name: "steps_per_detent") { c, v in
            guard let n = Int(v), [1, 2, 4].contains(n) else { return "must be 1, 2 or 4" }
            c.stepsPerDetent = n
            return nil
        },
        ConfigKey(name: "degrees_per_step") { c, v in
            guard let d = Double(v), d >= 1, d <= 180 else { return "must be a number of degrees, 1–180" }
            c.degreesPerStep = d
            return nil
        },
        ConfigKey(name: "invert_wheel") { c, v in bool(v) { c.invertWheel = $0 } },
        ConfigKey(name: "touch_ring", apply: { c, v in
            let parts = v.split(separator: ",").map { Double(String($0).trimmed) }
            guard parts.count == 3, let x = parts[0], let y = parts[1], let r = parts[2], x.isFinite, y.isFinite,
                r.isFinite, r > 0
            else { return "must be the ring's centre and radius in device units: X,Y,RADIUS (e.g. 512,512,400)" }
            c.touchRing = TouchRingDecoder.Ring(centerX: x, centerY: y, radius: r)
            return nil
        }, isList: true),
        ConfigKey(name: "select_key") { c, v in
            let n = v.lowercased().hasPrefix("0x") ? Int(v.dropFirst(2), radix: 16) : Int(v)
            guard let n, (1...0x2FF).contains(n) else {
                return "must be an evdev key code, 1–767 (e.g. 28 for KEY_ENTER)"
            }
            c.selectKey = UInt16(n)
            return nil
        },
        ConfigKey(name: "acceleration") { c, v in
            switch v {
            case "off": c.acceleration = .off
            case "normal": c.acceleration = .normal
            case "fast": c.acceleration = .fast
            default: return "must be off, normal or fast"
            }
            return nil
        },
        ConfigKey(name: "hold_ms") { c, v in
            guard let n = Int(v), (200...3000).contains(n) else { return "must be 200–3000 (milliseconds)" }
            c.holdMS = n
            return nil
        },
        ConfigKey(name: "output", apply: { c, v in
            let items = v.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty }
            var outputs: [ServiceConfig.Output] = []
            for item in items {
                guard let o = ServiceConfig.Output(rawValue: item) else {
                    return "'\(item)' is not an output: pulse, null or snapcast (a list plays on all of them)"
                }
                guard !outputs.contains(o) else { return "'\(item)' is listed twice" }
                outputs.append(o)
            }
            guard !outputs.isEmpty else { return "must name at least one output: pulse, null or snapcast" }
            c.outputs = outputs
            return nil
        }, isList: true),
        ConfigKey(name: "snapcast") { c, v in
            let bare = v.split(separator: "?", maxSplits: 1).first.map(String.init) ?? v
            if bare.hasPrefix("tcp://") {
                let address = String(bare.dropFirst(6).split(separator: "/").first ?? "")
                guard let colon = address.lastIndex(of: ":"), colon != address.startIndex,
                    let port = Int(address[address.index(after: colon)...]), (1...65535).contains(port)
                else { return "must be tcp://HOST:PORT (snapserver's tcp source in server mode) or pipe:///PATH" }
            } else if !bare.hasPrefix("pipe:///") {
                return "must be tcp://HOST:PORT (snapserver's tcp source in server mode) or pipe:///PATH"
            }
            c.snapcast = bare
            return nil
        },
        ConfigKey(name: "snapcast_control") { c, v in
            if v == "off" {
                c.snapcastControl = v
                return nil
            }
            return hostPort(v, example: "127.0.0.1:1705") { c.snapcastControl = $0 }
        },
        ConfigKey(name: "volume") { c, v in
            guard let n = Int(v), (0...100).contains(n) else { return "must be 0–100" }
            c.volume = n
            return nil
        },
        ConfigKey(name: "socket_group") { c, v in nonEmpty(v) { c.socketGroup = $0 } },
        ConfigKey(name: "tcp") { c, v in hostPort(v, example: "127.0.0.1:6600") { c.tcp = $0 } },
        ConfigKey(name: "web") { c, v in hostPort(v, example: "127.0.0.1:8080") { c.web = $0 } },
        ConfigKey(name: "password") { c, v in nonEmpty(v) { c.password = $0 } },
        ConfigKey(name: "demo") { c, v in bool(v) { c.demo = $0 } },
        ConfigKey(name: "shutdown_command") { c, v in nonEmpty(v) { c.shutdownCommand = $0 } },
        ConfigKey(name: "restart_command") { c, v in nonEmpty(v) { c.restartCommand = $0 } },
        ConfigKey(name: "scrobble_log") { c, v in nonEmpty(v) { c.scrobbleLog = $0 } },
        ConfigKey(name: "clock_synced_file") { c, v in
            guard v.hasPrefix("/") else { return "must be an absolute path, e.g. /run/systemd/timesync/synchronized" }
            c.clockSyncedFile = v
            return nil
        },
        // The `podcasts:` section (a mapping in the file; `podcasts.keep` here).
        ConfigKey(name: "podcasts.feeds", apply: { c, v in
            let items = v.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty }
            for item in items where !isFeedURL(item) { return "'\(item)' is not an http or https address" }
            c.podcasts.feeds = items
            return nil
        }, isList: true),
        ConfigKey(name: "podcasts.refresh") { c, v in
            guard let seconds = duration(v), seconds >= 60, seconds <= 7 * 86400 else {
                return "must be a time from 1m to 7d, e.g. 1h, 30m or 90s"
            }
            c.podcasts.refreshSeconds = seconds
            return nil
        },
        ConfigKey(name: "podcasts.keep") { c, v in
            guard let n = Int(v), (1...100).contains(n) else { return "must be 1–100 (episodes per show)" }
            c.podcasts.keep = n
            return nil
        },
        ConfigKey(name: "podcasts.max_episode_mb") { c, v in
            guard let n = Int(v), (1...100_000).contains(n) else { return "must be 1–100000 (MB)" }
            c.podcasts.maxEpisodeMB = n
            return nil
        },
        ConfigKey(name: "podcasts.delete_played_after_days") { c, v in
            guard let n = Int(v), (0...3650).contains(n) else { return "must be 0 (off) to 3650 days" }
            c.podcasts.deletePlayedAfterDays = n
            return nil
        },
        ConfigKey(name: "log_level") { c, v in
            let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
            guard levels.contains(v) else { return "must be one of \(levels.joined(separator: ", "))" }
            c.logLevel = v
            return nil
        },
    ]

    static let byName: [String: ConfigKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// `HOST:PORT` with a port in 1…65535.
    private static func hostPort(_ v: String, example: String, _ set: (String) -> Void) -> String? {
        guard let colon = v.lastIndex(of: ":"), let port = Int(v[v.index(after: colon)...]), (1...65535).contains(port),
            colon != v.startIndex
        else { return "must be HOST:PORT, e.g. \(example)" }
        set(v)
        return nil
    }

    /// `90s`, `30m`, `1h`, `2d` or plain seconds, in seconds.
    static func duration(_ v: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let n = Int(v) { return n }
        guard let unit = v.last.flatMap({ units[$0] }), let n = Int(v.dropLast()), n >= 0 else { return nil }
        return n.multipliedReportingOverflow(by: unit).overflow ? nil : n * unit
    }

    /// An absolute http or https address with a host (the library's subscriptions take only these).
    private static func isFeedURL(_ v: String) -> Bool {
        guard let scheme = v.range(of: "://").map({ v[..<$0.lowerBound].lowercased() }), scheme == "http" || scheme == "https"
        else { return false }
        let rest = v[v.range(of: "://")!.upperBound...]
        return !(rest.split(separator: "/", omittingEmptySubsequences: false).first ?? "").isEmpty
    }

    private static func nonEmpty(_ v: String, _ set: (String) -> Void) -> String? {
        guard !v.isEmpty else { return "must not be empty" }
        set(v)
        return nil
    }

    private static func bool(_ v: String, _ set: (Bool) -> Void) -> String? {
        switch v.lowercased() {
        case "true", "yes", "on", "1": set(true)
        case "false", "no", "off", "0": set(false)
        default: return "must be true or false"
        }
        return nil
    }
}

extension String {
    var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
