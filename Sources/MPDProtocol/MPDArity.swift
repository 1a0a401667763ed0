/// How many arguments a command accepts, checked before its handler runs (MPD's min/max).
public enum MPDArity: Sendable, Hashable {
    /// Any number; nothing is checked (MPD's `-1, -1`, used by `close`).
    case unchecked
    /// Between `min` and `max` arguments; `max == nil` means no upper limit.
    case bounded(min: Int, max: Int?)

    /// Exactly `count` arguments.
    public static func exactly(_ count: Int) -> MPDArity { .bounded(min: count, max: count) }

    /// Between `min` and `max` arguments.
    public static func between(_ min: Int, _ max: Int) -> MPDArity { .bounded(min: min, max: max) }

    /// At least `min` arguments.
    public static func atLeast(_ min: Int) -> MPDArity { .bounded(min: min, max: nil) }

    /// No arguments.
    public static let none = MPDArity.exactly(0)

    /// Checks `count` for the command `name`, with MPD's messages: `wrong number of arguments
    /// for "ping"` when min equals max, else `too few arguments for "add"` or `too many
    /// arguments for "lsinfo"` (code 2).
    public func check(_ count: Int, command name: String) throws(MPDError) {
        guard case .bounded(let min, let max) = self else { return }
        if min == max && count != min {
            throw .argument("wrong number of arguments for \"\(name)\"")
        } else if count < min {
            throw .argument("too few arguments for \"\(name)\"")
        } else if let max, count > max {
            throw .argument("too many arguments for \"\(name)\"")
        }
    }
}
