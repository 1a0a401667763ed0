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
}
