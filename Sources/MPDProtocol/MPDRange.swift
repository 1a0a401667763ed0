/// A half-open range of queue positions as MPD parses it (`S:E`, `S:`, or a single `N`).
public struct MPDRange: Sendable, Hashable {
    /// First position.
    public var start: Int
    /// One past the last position, or `nil` for an open end (`S:`, and the legacy `-1`).
    public var end: Int?

    public init(start: Int, end: Int?) {
        self.start = start
        self.end = end
    }

    /// The whole list (`-1` in the single-number form, kept for old clients).
    public static let all = MPDRange(start: 0, end: nil)

    /// Whether the range is everything (`start == 0`, open end).
    public var isAll: Bool { start == 0 && end == nil }

    /// The range clamped to a list of `count` elements, or `nil` when `start` lies beyond it
    /// (MPD's `Bad song index`; a start equal to `count` is an empty range).
    public func clamped(toCount count: Int) -> Range<Int>? {
        guard start <= count else { return nil }
        return start..<min(end ?? count, count)
    }

    /// The range clamped to a list of `count` elements, empty when it lies beyond it (the windows of
    /// `find`/`search` and `plchanges`, which MPD answers with nothing rather than `Bad song index`).
    public func clampedOrEmpty(toCount count: Int) -> Range<Int> {
        let lower = min(start, count)
        return lower..<max(lower, min(end ?? count, count))
    }
}

/// Range parsing with MPD's exact error messages.
extension MPDArgument {
    /// Parses a position or range: `N` (= `N:N+1`), `S:E`, `S:` (open end), or `-1` (all).
    ///
    /// Errors (code 2): `Integer or range expected: a:b`, `Number is negative: -2`,
    /// `Number too large: N`, `Malformed range: 3:1`.
    public func range() throws(MPDError) -> MPDRange {
        let expected = MPDError.argument("Integer or range expected: \(string)")
        let first = CNumberScan(bytes)
        let colon = UInt8(ascii: ":")
        guard first.hasDigits, first.end == bytes.count || bytes[first.end] == colon else { throw expected }
        let start = first.signedValue
        if start == -1 && first.end == bytes.count { return .all }
        try Self.checkRangeBound(start, string)
        guard first.end < bytes.count else {
            return MPDRange(start: Int(start), end: Int(start) + 1)
        }
        let endStart = first.end + 1
        if endStart == bytes.count { return MPDRange(start: Int(start), end: nil) }
        let second = CNumberScan(bytes, from: endStart)
        guard second.end == bytes.count else { throw expected }
        let end = second.hasDigits ? second.signedValue : Int64(Int32.max)
        try Self.checkRangeBound(end, string)
        guard start <= end else { throw .argument("Malformed range: \(string)") }
        return MPDRange(start: Int(start), end: Int(end))
    }

    private static func checkRangeBound(_ value: Int64, _ text: String) throws(MPDError) {
        if value < 0 { throw .argument("Number is negative: \(text)") }
        if value > Int64(Int32.max) { throw .argument("Number too large: \(text)") }
    }
}
