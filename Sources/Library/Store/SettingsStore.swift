public import ClickWheelCore
import Foundation
public import GRDB

/// Keeps the user's settings in the library database (`library_meta`, key `settings`, as JSON), so
/// they survive restarts and power cuts with the rest of the state.
///
/// Thread rules: any thread (GRDB serialises writes).
public struct SettingsStore: Sendable {
    let db: any DatabaseWriter

    public init(_ db: any DatabaseWriter) { self.db = db }

    /// The stored settings, or the defaults when none are stored (or they cannot be read: a newer or
    /// damaged value is replaced at the next save rather than stopping the service).
    public func load() -> Settings {
        guard let json = try? db.read({ try String.fetchOne($0, sql: "SELECT value FROM library_meta WHERE key = 'settings'") }),
            let settings = try? Self.decoder.decode(Settings.self, from: Data(json.utf8))
        else { return Settings() }
        return settings
    }

    /// JSON has no nan or infinity, which MPD's `mixrampdb`/`mixrampdelay` accept: they are stored as
    /// these strings (plain JSON numbers otherwise, so settings stored before read as they were).
    private static let nonFinite = (positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")

    private static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: nonFinite.positiveInfinity, negativeInfinity: nonFinite.negativeInfinity, nan: nonFinite.nan)
        return e
    }

    private static var decoder: JSONDecoder {
        let d = JSONDecoder()
        d.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: nonFinite.positiveInfinity, negativeInfinity: nonFinite.negativeInfinity, nan: nonFinite.nan)
        return d
    }

    public func save(_ settings: Settings) throws {
        let json = String(decoding: try Self.encoder.encode(settings), as: UTF8.self)
        try db.write {
            try $0.execute(sql: "INSERT OR REPLACE INTO library_meta (key, value) VALUES ('settings', ?)", arguments: [json])
        }
    }
}
