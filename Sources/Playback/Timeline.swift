/// Which track, and which sample of it, sits at each frame of the output stream.
///
/// The audio thread writes tracks back to back into one stream (gapless); the sound card plays them
/// later. The timeline maps the stream's played-frame count (its clock) back to a track and a position,
/// and notices when the heard audio crosses from one track into the next. Thread rules: a value owned by
/// the audio thread. Pure: tested without audio.
struct Timeline {
    struct Segment: Equatable {
        /// Stream frame at which the segment starts.
        var start: Int64
        var track: AudioTrack
        /// The track's sample (per channel) at `start`.
        var firstSample: Int64
    }

    /// A change the listener would notice.
    enum Transition: Equatable {
        case finished(AudioTrack)
        case started(AudioTrack)
    }

    private(set) var segments: [Segment] = []
    /// Stream frame the next write lands on.
    private(set) var written: Int64 = 0
    /// Index in `segments` of the segment last reported as heard, -1 when none.
    private var heard = -1
    let rate: Int

    init(rate: Int) { self.rate = rate }

    /// Starts over on a flushed or new stream: `track` from `sample` goes to frame `at`. `announce`: report
    /// `.started` when it is heard (false for a seek or a reconnect within the same track).
    mutating func restart(at frame: Int64, track: AudioTrack, sample: Int64, announce: Bool) {
        segments = [Segment(start: frame, track: track, firstSample: sample)]
        written = frame
        heard = announce ? -1 : 0
    }

    /// Forgets everything (stop).
    mutating func clear() {
        segments = []
        written = 0
        heard = -1
    }

    /// Appends the next track at the current write position (gapless change, same stream).
    mutating func append(_ track: AudioTrack) {
        segments.append(Segment(start: written, track: track, firstSample: 0))
    }

    /// Drops what was written from stream frame `frame` on (after a flush): later segments go, `written`
    /// comes back to `frame`; what was heard stays heard.
    mutating func cut(at frame: Int64) {
        segments.removeAll { $0.start > frame }
        written = min(written, frame)
        heard = min(heard, segments.count - 1)
    }

    /// Frames written of the segment playing at `frame`, from `frame` to its end (or what was written).
    func framesInSegment(from frame: Int64) -> Int64 {
        guard let i = index(at: frame) else { return 0 }
        let end = i + 1 < segments.count ? segments[i + 1].start : written
        return max(0, end - frame)
    }

    /// True when the segment playing at `frame` was already reported started.
    func isHeard(at frame: Int64) -> Bool {
        guard let i = index(at: frame) else { return false }
        return i <= heard
    }

    /// Records `frames` written after the last one.
    mutating func wrote(frames: Int64) { written += frames }

    /// The track and its sample heard at stream frame `played`; nil before the first segment.
    func position(at played: Int64) -> (track: AudioTrack, sample: Int64)? {
        guard let i = index(at: played) else { return nil }
        let s = segments[i]
        return (s.track, s.firstSample + min(played, written) - s.start)
    }

    /// The transitions heard up to `played` since the last call; drops segments that are over.
    /// A segment counts as heard once the clock is past its first frame.
    mutating func advance(to played: Int64) -> [Transition] {
        guard let i = index(at: played) else { return [] }
        if i == 0 {
            guard heard == -1, played > segments[0].start else { return [] }
            heard = 0
            return [.started(segments[0].track)]
        }
        var out: [Transition] = []
        for j in 0..<i {
            if j > heard { out.append(.started(segments[j].track)) }
            out.append(.finished(segments[j].track))
        }
        out.append(.started(segments[i].track))
        segments.removeFirst(i)
        heard = 0
        return out
    }

    /// Transitions for everything written having been heard (after a drain): the rest finish.
    mutating func finishAll() -> [Transition] {
        var out: [Transition] = []
        for (j, s) in segments.enumerated() {
            if j > heard { out.append(.started(s.track)) }
            out.append(.finished(s.track))
        }
        clear()
        return out
    }

    private func index(at played: Int64) -> Int? {
        segments.lastIndex { $0.start <= played }
    }
}
