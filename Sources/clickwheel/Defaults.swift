import Foundation

/// Default locations, as in the command-line contract: environment first, then XDG, then the home folder.
enum Defaults {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    static var home: String { environment["HOME"] ?? NSHomeDirectory() }

    /// `CLICKWHEEL_MUSIC`, else `~/Music`.
    static var musicFolder: String { environment["CLICKWHEEL_MUSIC"] ?? home + "/Music" }

    /// `CLICKWHEEL_DB`, else `$XDG_DATA_HOME/clickwheel/library.sqlite` (`~/.local/share/…`).
    static var database: String {
        if let db = environment["CLICKWHEEL_DB"], !db.isEmpty { return db }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
        return data + "/clickwheel/library.sqlite"
    }

    /// Expands a leading `~/`.
    static func expand(_ path: String) -> String {
        path.hasPrefix("~/") ? home + path.dropFirst() : path
    }
}
