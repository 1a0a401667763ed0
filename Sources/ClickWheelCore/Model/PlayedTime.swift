/// How long the player has been playing since the service started (MPD's `stats` `playtime`): the
/// time in the playing state, pauses and stops left out.
///
/// Pure: the engine tells it the state after every event, with the event's time; it reads no clock.
public struct PlayedTime: Hashable, Sendable {
    /// Milliseconds played in the spans that ended.
    private var endedMS: Int64 = 0
    /// When the span of playing going on now began; nil while not playing.
    private var playingSince: Timestamp?

    public init() {}

    /// Records whether the player plays at `time`: a span begins when it starts, ends when it stops.
    public mutating func update(playing: Bool, at time: Timestamp) {
        if playing, playingSince == nil {
            playingSince = time
        } else if !playing, let since = playingSince {
            endedMS += max(0, time.milliseconds(since: since))
            playingSince = nil
        }
    }

    /// Milliseconds played up to `time` (at or after the last update).
    public func milliseconds(at time: Timestamp) -> Int64 {
        endedMS + (playingSince.map { max(0, time.milliseconds(since: $0)) } ?? 0)
    }

    /// True while a span of playing goes on.
    public var isPlaying: Bool { playingSince != nil }
}
