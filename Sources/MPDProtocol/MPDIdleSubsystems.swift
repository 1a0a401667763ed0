/// A set of idle subsystems (`changed: NAME`), kept in MPD's fixed reporting order.
///
/// Several pending events are reported in this order, never in the order they happened:
/// database, stored_playlist, playlist, player, mixer, output, options, partition, sticker,
/// update, subscription, message, neighbor, mount — then ClickWheel's own `screen` and `podcast`.
public struct MPDIdleSubsystems: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public static let database = Self(rawValue: 1 << 0)
    public static let storedPlaylist = Self(rawValue: 1 << 1)
    public static let playlist = Self(rawValue: 1 << 2)
    public static let player = Self(rawValue: 1 << 3)
    public static let mixer = Self(rawValue: 1 << 4)
    public static let output = Self(rawValue: 1 << 5)
    public static let options = Self(rawValue: 1 << 6)
    public static let partition = Self(rawValue: 1 << 7)
    public static let sticker = Self(rawValue: 1 << 8)
    public static let update = Self(rawValue: 1 << 9)
    public static let subscription = Self(rawValue: 1 << 10)
    public static let message = Self(rawValue: 1 << 11)
    public static let neighbor = Self(rawValue: 1 << 12)
    public static let mount = Self(rawValue: 1 << 13)
    /// ClickWheel extension: a new LCD frame was rendered.
    public static let screen = Self(rawValue: 1 << 14)
    /// ClickWheel extension: a podcast subscription or its episodes changed (added, fetched, downloaded,
    /// deleted, failed).
    public static let podcast = Self(rawValue: 1 << 15)

    /// MPD's subsystems: what a bare `idle` waits for. Neither extension is in it: `screen` fires several times a second while
    /// something moves on the display, so only a client that names it (`idle screen`) hears it; MPD
    /// clients never see a name they do not know (so `podcast` too is heard only when named).
    public static let all = Self(rawValue: (1 << 14) - 1)

    /// Wire names in reporting order; index `i` is bit `i`.
    public static let names = [
        "database", "stored_playlist", "playlist", "player", "mixer", "output", "options", "partition",
        "sticker", "update", "subscription", "message", "neighbor", "mount", "screen", "podcast",
    ]

    /// The names of the members, in reporting order.
    public var memberNames: [String] {
        Self.names.indices.filter { rawValue & (1 << UInt32($0)) != 0 }.map { Self.names[$0] }
    }

    /// Looks a subsystem up by name, ignoring ASCII case (`idle Player OPTIONS` works).
    public init?(name: MPDArgument) {
        guard let index = Self.names.firstIndex(where: { name.equalsIgnoringCase($0) }) else { return nil }
        self.init(rawValue: 1 << UInt32(index))
    }

    /// Parses `idle`'s arguments; none means every subsystem.
    ///
    /// Error: `Unrecognized idle event: bogus` (code 2).
    public static func parse(_ arguments: [MPDArgument]) throws(MPDError) -> MPDIdleSubsystems {
        var result: MPDIdleSubsystems = []
        for argument in arguments {
            guard let subsystem = MPDIdleSubsystems(name: argument) else {
                throw .argument("Unrecognized idle event: \(argument.string)")
            }
            result.formUnion(subsystem)
        }
        return result.isEmpty ? .all : result
    }

    /// Encodes the idle answer: one `changed: NAME` line per member, then `OK`.
    public func encodedAnswer() -> [UInt8] {
        var bytes: [UInt8] = []
        for name in memberNames {
            bytes.append(contentsOf: "changed: \(name)\n".utf8)
        }
        bytes.append(contentsOf: MPDResponse.ok)
        return bytes
    }
}
