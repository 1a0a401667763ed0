/// Scrolls a line too long for its field: a pause at the start, then one character per step,
/// round and round with a gap, driven by the time since the line was selected.
public struct Marquee: Hashable, Sendable {
    public var pauseMS: Int64
    public var stepMS: Int64
    public var gap: Int

    public init(pauseMS: Int64 = 1500, stepMS: Int64 = 300, gap: Int = 3) {
        self.pauseMS = pauseMS
        self.stepMS = stepMS
        self.gap = gap
    }

    /// The `width` characters of `text` to show `elapsedMS` after selection (padded when it fits).
    public func window(_ text: [Character], width: Int, elapsedMS: Int64) -> [Character] {
        guard width > 0 else { return [] }
        if text.count <= width {
            return text + Array(repeating: " ", count: width - text.count)
        }
        let loop = text + Array(repeating: " ", count: gap)
        let cycle = pauseMS + Int64(loop.count) * stepMS
        let t = max(0, elapsedMS) % cycle
        let offset = t < pauseMS ? 0 : Int((t - pauseMS) / stepMS)
        return (0..<width).map { loop[(offset + $0) % loop.count] }
    }

    /// How long after `elapsedMS` the window of a `count`-character text in a `width` field next moves:
    /// nil when the text fits (it never moves). Never late; it may be early (then the window is the same
    /// and the question is asked again).
    public func millisecondsToNextStep(count: Int, width: Int, elapsedMS: Int64) -> Int64? {
        guard width > 0, count > width else { return nil }
        if elapsedMS < 0 { return -elapsedMS }
        let cycle = pauseMS + Int64(count + gap) * stepMS
        let t = elapsedMS % cycle
        return t < pauseMS ? pauseMS - t : stepMS - (t - pauseMS) % stepMS
    }
}
