/// One chapter of a file (ID3v2 `CHAP`, in `CTOC` order): where it starts and ends, and its title.
public struct Chapter: Hashable, Sendable {
    public var startMS: Int
    public var endMS: Int
    public var title: String

    public init(startMS: Int, endMS: Int, title: String) {
        self.startMS = startMS
        self.endMS = endMS
        self.title = title
    }
}

extension [Chapter] {
    /// The index of the chapter playing at `ms`: the last one starting at or before it (nil before the first).
    public func index(at ms: Int) -> Int? {
        lastIndex { $0.startMS <= ms }
    }

    /// Where Next goes from `ms`: the start of the following chapter, nil past the last (the next track).
    public func nextStart(after ms: Int) -> Int? {
        guard let i = index(at: ms) else { return first?.startMS }
        return i + 1 < count ? self[i + 1].startMS : nil
    }

    /// Where Previous goes from `ms`: the start of the current chapter when more than `restartMS` into it,
    /// else the previous chapter's; nil before the first chapter's first `restartMS` (the previous track).
    public func previousStart(before ms: Int, restartMS: Int = 3000) -> Int? {
        guard let i = index(at: ms) else { return nil }
        if ms - self[i].startMS > restartMS { return self[i].startMS }
        return i > 0 ? self[i - 1].startMS : nil
    }
}
