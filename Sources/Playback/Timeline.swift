/// Which track, and which sample of it, sits at each frame of the output stream.
///
/// The audio thread writes tracks back to back into one stream (gapless); the sound card plays them
/// later. The timeline maps the stream's played-frame count (its clock) back to a track and a position,
/// and notices when the heard audio crosses from one track into the next. Spoken word played faster or
/// slower (`SpeechStage`) keeps the track's own time: a segment says how many track samples each stream
/// frame stands for, and a speed change mid-track starts a segment that continues the same track (no
/// finish and start reported). Thread rules: a value owned by the audio thread. Pure: tested without audio.
struct Timeline {
    struct Segment: Equatable {
        /// Stream frame at which the segment starts.
        var start: Int64
        var track: AudioTrack
        /// The track's sample (per channel) at `start`.
        var firstSample: Int64
        /// Track samples per stream frame: the spoken-word speed (1: played as it is).
        var speed: Double = 1
        /// The same track going on from the segment before (a speed change): no transition between them.
        var continues = false
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
    mutating func restart(at frame: Int64, track: AudioTrack, sample: Int64, announce: Bool, speed: Double = 1) {
        segments = [Segment(start: frame, track: track, firstSample: sample, speed: speed)]
        written = frame
        heard = announce ? -1 : 0
    }

    /// Forgets everything (stop).
    mutating func clear() {
        segments = []
        written = 0
        heard = -1
    }

    /// Appends the next track at the current write position (gapless change, same stream), or at `frame`
    /// when it is still inside the speech stage (it comes out there, after what the stage holds).
    mutating func append(_ track: AudioTrack, at frame: Int64? = nil, speed: Double = 1) {
        segments.append(Segment(start: frame ?? written, track: track, firstSample: 0, speed: speed))
    }

    /// From stream frame `frame` on, `track` plays from `sample` at `speed` (a speed change): later segments
    /// go and `written` comes back to `frame` (what is queued from there is written again). When the
    /// segment before is the same track, the new one continues it (no transition is reported).
    mutating func respeed(at frame: Int64, track: AudioTrack, sample: Int64, speed: Double) {
        segments.removeAll { $0.start >= frame }
        written = min(written, frame)
        heard = min(heard, segments.count - 1)
        let continues = segments.last?.track == track
        segments.append(Segment(start: frame, track: track, firstSample: sample, speed: speed, continues: continues))
        if continues && heard == segments.count - 2 { heard += 1 }
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
        let end = i + 1 < segments.count ? min(written, segments[i + 1].start) : written
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
        let frames = max(0, min(played, written) - s.start)
        return (s.track, s.firstSample + (s.speed == 1 ? frames : Int64((Double(frames) * s.speed).rounded())))
    }

    /// Track samples per stream frame at stream frame `played` (1 before the first segment).
    func speed(at played: Int64) -> Double { index(at: played).map { segments[$0].speed } ?? 1 }

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
            if j > heard && !segments[j].continues { out.append(.started(segments[j].track)) }
            if !segments[j + 1].continues { out.append(.finished(segments[j].track)) }
        }
        if !segments[i].continues { out.append(.started(segments[i].track)) }
        segments.removeFirst(i)
        segments[0].continues = false
        heard = 0
        return out
    }

    /// Transitions for everything written having been heard (after a drain): the rest finish.
    mutating func finishAll() -> [Transition] {
        var out: [Transition] = []
        for (j, s) in segments.enumerated() {
            if j > heard && !s.continues { out.append(.started(s.track)) }
            if j + 1 == segments.count || !segments[j + 1].continues { out.append(.finished(s.track)) }
        }
        clear()
        return out
    }

    private func index(at played: Int64) -> Int? {
        segments.lastIndex { $0.start <= played }
    }
}
