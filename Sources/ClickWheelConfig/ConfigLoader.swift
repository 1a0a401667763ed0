public import Foundation
import Yams

/// Builds a `ServiceConfig` from defaults, a YAML file, `CLICKWHEEL_*` environment variables and
/// command-line flags, in that order of increasing precedence; `demo` then replaces `music` and `db`.
/// Every mistake (unknown key, bad value, a list where a value belongs) is reported with where it is,
/// and nothing is guessed.
public struct ConfigLoader: Sendable {
    /// Where the system service looks when no `--config` is given.
    public static let systemPath = "/etc/clickwheel/clickwheel.yaml"

    public var environment: [String: String]
    public var home: String

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        home = environment["HOME"] ?? NSHomeDirectory()
    }

    /// The defaults of the command-line contract: music `~/Music`; database
    /// `$XDG_DATA_HOME/clickwheel/library.sqlite`; socket `$XDG_RUNTIME_DIR/clickwheel/socket`.
    public func defaults() -> ServiceConfig {
        let data = nonEmpty(environment["XDG_DATA_HOME"]) ?? home + "/.local/share"
        let runtime = nonEmpty(environment["XDG_RUNTIME_DIR"]) ?? "/run"
        return ServiceConfig(
            music: home + "/Music", db: data + "/clickwheel/library.sqlite", socket: runtime + "/clickwheel/socket")
    }

    /// Where `--demo` keeps its generated library: `$XDG_DATA_HOME/clickwheel/demo`.
    public var demoFolder: String { dataHome + "/clickwheel/demo" }

    /// The demo library's own database, beside its folder: `$XDG_DATA_HOME/clickwheel/demo.sqlite`.
    public var demoDatabase: String { dataHome + "/clickwheel/demo.sqlite" }

    private var dataHome: String { nonEmpty(environment["XDG_DATA_HOME"]) ?? home + "/.local/share" }

    /// Loads: `file` (nil: none), then the environment, then `flags` (key name → value as typed).
    public func load(file: String?, flags: [String: String] = [:]) throws(ConfigErrors) -> ServiceConfig {
        var config = defaults()
        var errors: [ConfigError] = []
        if let file {
            do {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                errors += apply(yaml: text, fileName: file, to: &config)
            } catch {
                errors.append(ConfigError(file, "cannot read the configuration: \(error.localizedDescription)"))
            }
        }
        for key in ConfigKey.all {
            guard let value = environment[key.environmentVariable] else { continue }
            if let problem = key.apply(&config, value.trimmed) {
                errors.append(ConfigError("environment \(key.environmentVariable)", "'\(value)': \(problem)"))
            }
        }
        for (name, value) in flags.sorted(by: { $0.key < $1.key }) {
            let key = ConfigKey.byName[name]!
            if let problem = key.apply(&config, value.trimmed) {
                errors.append(ConfigError("--" + name.replacingOccurrences(of: "_", with: "-"), "'\(value)': \(problem)"))
            }
        }
        guard errors.isEmpty else { throw ConfigErrors(errors: errors) }
        if config.demo {
            config.music = demoFolder
            config.db = demoDatabase
        }
        config.music = expand(config.music)
        config.db = expand(config.db)
        config.socket = expand(config.socket)
        config.scrobbleLog = config.scrobbleLog.map(expand)
        return config
    }

    /// Applies a YAML document; returns what is wrong with it, each with file, line and column.
    func apply(yaml: String, fileName: String, to config: inout ServiceConfig) -> [ConfigError] {
        let base = (fileName as NSString).lastPathComponent
        func at(_ node: Node) -> String {
            guard let mark = node.mark else { return base }
            return "\(base):\(mark.line):\(mark.column)"
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            return [ConfigError(base, "not valid YAML: \(error)")]
        } catch {
            return [ConfigError(base, "not valid YAML: \(error)")]
        }
        guard let root else { return [] }  // an empty file is a valid, empty configuration
        guard case .mapping(let mapping) = root else {
            return [ConfigError(at(root), "the configuration must be a mapping of keys to values")]
        }
        var errors: [ConfigError] = []
        var seen = Set<String>()
        // A section (`podcasts:`) is a mapping whose keys are known as `section.key`.
        var entries: [(keyNode: Node, name: String?, value: Node)] = []
        for (keyNode, valueNode) in mapping {
            if let section = keyNode.string, Self.sections.contains(section) {
                guard case .mapping(let inner) = valueNode else {
                    errors.append(ConfigError(at(valueNode), "'\(section)' must be a mapping of keys to values"))
                    continue
                }
                if !seen.insert(section).inserted {
                    errors.append(ConfigError(at(keyNode), "'\(section)' is given twice"))
                    continue
                }
                for (k, v) in inner { entries.append((k, k.string.map { section + "." + $0 }, v)) }
            } else {
                entries.append((keyNode, keyNode.string, valueNode))
            }
        }
        for (keyNode, keyName, valueNode) in entries {
            guard let name = keyName, let key = ConfigKey.byName[name] else {
                let name = keyName ?? "\(keyNode)"
                let hint = Self.closest(to: name).map { " (did you mean '\($0)'?)" } ?? ""
                errors.append(ConfigError(at(keyNode), "unknown key '\(name)'\(hint)"))
                continue
            }
            if !seen.insert(name).inserted {
                errors.append(ConfigError(at(keyNode), "'\(name)' is given twice"))
                continue
            }
            let text: String
            switch valueNode {
            case .scalar(let scalar):
                text = scalar.string
            case .sequence(let sequence) where key.isList:
                var items: [String] = []
                for item in sequence {
                    guard let s = item.string else {
                        errors.append(ConfigError(at(item), "'\(name)' items must be plain values"))
                        continue
                    }
                    items.append(s)
                }
                text = items.joined(separator: ",")
            default:
                errors.append(ConfigError(at(valueNode), "'\(name)' must be a single value"))
                continue
            }
            if let problem = key.apply(&config, text.trimmed) {
                errors.append(ConfigError(at(valueNode), "'\(name)' \(problem)"))
            }
        }
        return errors
    }

    /// Keys whose value is a mapping of their own keys (`podcasts:` with `feeds:`, `keep:`…).
    static let sections: Set<String> = ["podcasts"]

    /// The known key nearest to a misspelt one (at most two edits away).
    static func closest(to name: String) -> String? {
        let candidates = ConfigKey.all.map(\.name).map { ($0, distance(Array(name), Array($0))) }
        guard let best = candidates.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(1, b.count) where !b.isEmpty {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }

    private func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }

    private func expand(_ path: String) -> String { path.hasPrefix("~/") ? home + path.dropFirst() : path }
}

/// Every mistake found in the configuration, one per line.
public struct ConfigErrors: Error, Equatable, CustomStringConvertible, Sendable {
    public var errors: [ConfigError]
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

extension ConfigLoader {
    /// The configuration file a command reads: the one given (`--config`), else the system's
    /// (`systemPath`) when it exists, else none.
    public static func file(explicit: String?) -> String? {
        explicit ?? (FileManager.default.fileExists(atPath: systemPath) ? systemPath : nil)
    }

    /// The configuration every command uses: the file `file(explicit:)` names, then the environment,
    /// then `flags`; and which file that was.
    public static func resolve(
        explicit: String?, flags: [String: String] = [:]
    ) throws(ConfigErrors) -> (config: ServiceConfig, file: String?) {
        let file = file(explicit: explicit)
        return (try ConfigLoader().load(file: file, flags: flags), file)
    }
}
