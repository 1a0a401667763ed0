import Foundation

// The parts `PlayerLoop`'s state is made of. Each groups what changes together; where two flags and an
// enum could contradict each other it is one enum whose cases carry what only they have, so the
// contradiction cannot be written. Plain values (no I/O; a clock only when handed one), each tested on
// its own (Tests/PlaybackTests/PlayerLoopStateTests.swift).
//
// Thread rules: owned by the `PlayerLoop` of the audio thread; nothing here is shared.

extension PlayerLoop {
    /// The link to the sound server: connected (and whether a stream opened on it), or waiting to try
    /// again; how the outputs were last reported.
    struct OutputLink {
        enum State: Equatable {
            /// Connected. `streamOpened`: a stream opened on this connection (a failure before that means
            /// the server is not ready yet).
            case connected(streamOpened: Bool)
            /// Not connected: the next attempt is due at `retryAt`; `failure` says why the last one failed;
            /// `reported`: this outage was logged and reported already (once per outage).
            case disconnected(retryAt: Date, failure: String?, reported: Bool)
        }

        private(set) var state = State.disconnected(retryAt: .distantPast, failure: nil, reported: false)
        /// Whether the connection was made again once for a server that failed its first stream (once per
        /// outage: a server that keeps failing streams gets the pause after that).
        private(set) var retriedFirstStream = false
        /// What `.outputHealth` last said (nothing is reported while every output plays, as at a good start).
        var health = OutputHealth.audible

        var isConnected: Bool {
            if case .connected = state { return true }
            return false
        }

        /// When the next connect attempt is due (nil while connected).
        var retryAt: Date? {
            if case .disconnected(let at, _, _) = state { return at }
            return nil
        }

        /// Why the last connect failed (nil while connected).
        var failure: String? {
            if case .disconnected(_, let failure, _) = state { return failure }
            return nil
        }

        /// A connect succeeded: no stream on it yet.
        mutating func connected() { state = .connected(streamOpened: false) }

        /// A connect failed; the next attempt at `retryAt`. True for the first failure of an outage (the one
        /// to log and report).
        mutating func connectFailed(_ reason: String, retryAt: Date) -> Bool {
            var first = true
            if case .disconnected(_, _, let reported) = state { first = !reported }
            state = .disconnected(retryAt: retryAt, failure: reason, reported: true)
            return first
        }

        /// The server went away (the caller reports it): try again at `retryAt`.
        mutating func lost(retryAt: Date) {
            state = .disconnected(retryAt: retryAt, failure: failure, reported: true)
        }

        /// A stream opened: the server is ready, and a later outage may retry its first stream again.
        mutating func streamOpened() {
            if isConnected { state = .connected(streamOpened: true) }
            retriedFirstStream = false
        }

        /// A stream failed: true when it was the connection's first and the first such failure of the
        /// outage (connect again once, the server is taken for not ready); the retry is then counted.
        mutating func retryFirstStream() -> Bool {
            guard state == .connected(streamOpened: false), !retriedFirstStream else { return false }
            retriedFirstStream = true
            return true
        }

        /// An output was turned on while nothing could play: try now rather than at the next retry.
        mutating func retryNow() {
            if case .disconnected(_, let failure, let reported) = state {
                state = .disconnected(retryAt: .distantPast, failure: failure, reported: reported)
            }
        }
    }

    /// Underruns counted into log lines: at most one line per `interval`, with the number since the last.
    struct UnderrunLog {
        static let interval: TimeInterval = 10
        /// Underruns not yet in a log line.
        private(set) var unlogged = 0
        /// When the last line was written.
        private(set) var lastLine: Date?

        /// Counts an underrun at `now`; returns how many to put in a log line now (nil: not yet, they are
        /// kept for the next line).
        mutating func count(at now: Date) -> Int? {
            unlogged += 1
            if let lastLine, now.timeIntervalSince(lastLine) < Self.interval { return nil }
            let n = unlogged
            lastLine = now
            unlogged = 0
            return n
        }
    }

    /// What the listener hears, from the stream clock, and when the next `.position` report is due.
    struct HeardPosition {
        /// A track and a `positionInterval` slot of it (reports fall on whole multiples of the interval).
        struct Slot: Equatable {
            var track: Int
            var index: Int64
        }

        /// The track and sample last heard.
        var heard: (track: AudioTrack, sample: Int64)?
        /// The slot of the last `.position` report.
        private(set) var lastSlot: Slot?
        /// When the heard position reaches the next slot (the next report).
        private(set) var nextDue = Date.distantPast

        /// Records `sample` of `track` as heard at `now`, `step` frames a slot, playing at `speed` frames of
        /// the track per stream frame at `rate`. True when a report is due: `reporting` (audio moves) and
        /// another slot than the last report's (which it then is).
        mutating func hear(
            track: AudioTrack, sample: Int64, step: Int64, rate: Int, speed: Double, reporting: Bool, now: Date
        ) -> Bool {
            heard = (track, sample)
            let slot = Slot(track: track.id, index: sample / step)
            let due = reporting && lastSlot != slot
            if due { lastSlot = slot }
            nextDue = now.addingTimeInterval(Double(step - sample % step) / Double(rate) / speed)
            return due
        }
    }

    /// The player's settings as the engine last sent them, each kept within its range.
    struct Settings {
        /// 0…100.
        private(set) var volume = 100
        /// Sound Check: apply each track's ReplayGain (from the index) while decoding.
        var soundCheck = false
        /// Settings → Audiobooks: the speed spoken word plays at (0.5…3; 1: as recorded).
        private(set) var spokenWordSpeed = 1.0
        /// The crossfade between tracks in seconds (MPD's `crossfade`; 0: gapless joins).
        private(set) var crossfadeSeconds = 0

        mutating func setVolume(_ value: Int) { volume = max(0, min(100, value)) }

        /// False when the speed (within its range) is the one already set.
        mutating func setSpokenWordSpeed(_ value: Double) -> Bool {
            let new = min(3, max(0.5, value))
            guard new != spokenWordSpeed else { return false }
            spokenWordSpeed = new
            return true
        }

        mutating func setCrossfade(_ seconds: Int) { crossfadeSeconds = max(0, seconds) }
    }

    /// The stream being written: its format (nil: no stream open), the timeline of what was written
    /// where, and the frames written lately (a pause fades them out).
    struct StreamState {
        private(set) var format: PCMFormat?
        var timeline = Timeline(rate: 44_100)
        var history = PCMHistory(format: PCMFormat(sampleRate: 44_100, channels: 2))

        /// A new stream in `format`: its timeline and history start empty at frame 0.
        mutating func opened(_ format: PCMFormat) {
            self.format = format
            timeline = Timeline(rate: format.sampleRate)
            history = PCMHistory(format: format)
        }

        /// The stream is closed (or the connection with it); what it wrote stays until the next opens.
        mutating func closed() { format = nil }
    }

    /// The decoders open: the current track's, the queued next one's, and during a crossfade the old
    /// track's (`overlap`).
    struct TrackDecoders {
        var current: (any TrackDecoder)?
        var queued: (any TrackDecoder)?
        /// A crossfade being written: the old track mixed in under the start of the current one.
        var overlap: Overlap?

        /// The queued decoder becomes current (returned); nil when none is queued (nothing changes).
        mutating func advance() -> (any TrackDecoder)? {
            guard let next = queued else { return nil }
            queued = nil
            current = next
            return next
        }

        /// Every decoder closed.
        mutating func closeAll() {
            current = nil
            queued = nil
            overlap = nil
        }
    }

    /// A resume's fade-in: the first frames written after a faded pause ramp up from silence.
    enum FadeIn: Equatable {
        case none
        /// `offset` frames of `length` are written already (0 ≤ offset < length).
        case ramping(offset: Int, length: Int)

        /// A fade-in over `length` frames (none when 0).
        init(length: Int) { self = length > 0 ? .ramping(offset: 0, length: length) : .none }

        /// The ramp to apply to the next `frames` frames (where they start in it, and its length), nil when
        /// none; the fade-in moves past them.
        mutating func advance(by frames: Int) -> (offset: Int, length: Int)? {
            guard case .ramping(let offset, let length) = self else { return nil }
            self = offset + frames >= length ? .none : .ramping(offset: offset + frames, length: length)
            return (offset, length)
        }
    }

    /// The stream's cork (paused at the server, whatever the player was asked).
    enum Cork: Equatable {
        case uncorked
        case corked
        /// Corked until the fade-in of a resume is written (`uncorkAfterFill`): uncorked and empty, the server
        /// would run on in silence and drop the start of what comes.
        case corkedUntilFilled

        var isCorked: Bool { self != .uncorked }

        init(corked: Bool) { self = corked ? .corked : .uncorked }
    }

    /// Spoken word at another speed: the time-scaler and a speed change's rewrite of the queue.
    struct SpeechState {
        /// The time-scaler while spoken word plays at another speed than 1; nil: the decoder's samples go
        /// out as they are.
        var stage: SpeechStage?
        /// A speed change's crossfade: the old audio of the first rewritten frames (interleaved), faded out
        /// under the new, and the frames of it mixed so far.
        private(set) var fade: (old: [Int16], done: Int)?
        /// Where the next write lands when not after the last one (a speed change rewrites the queue).
        private(set) var rewriteAt: Int64?
        /// Write at least up to this stream frame, whatever the stream asks: a rewrite covers the old queue.
        private(set) var coverUntil: Int64 = 0

        /// A speed change rewrites the queue from stream frame `at` up to `coverUntil`, crossfading `old`
        /// (the frames queued there before) under the first new frames.
        mutating func rewrite(from at: Int64, coverUntil: Int64, old: [Int16]) {
            fade = old.isEmpty ? nil : (old, 0)
            rewriteAt = at
            self.coverUntil = coverUntil
        }

        /// The queue is written anew from a start: a rewrite in progress is over.
        mutating func endRewrite() {
            fade = nil
            rewriteAt = nil
            coverUntil = 0
        }

        /// Where the next write lands, once (nil: after the last one).
        mutating func takeRewriteAt() -> Int64? {
            defer { rewriteAt = nil }
            return rewriteAt
        }

        /// Mixes the speed change's fading old audio under `frames` frames of `samples`, linearly.
        mutating func mixFade(into samples: UnsafeMutableBufferPointer<Int16>, frames: Int, channels: Int) {
            guard let (old, done) = fade else { return }
            let total = old.count / channels
            let n = min(frames, total - done)
            for f in 0..<n {
                let up = Double(done + f + 1) / Double(total + 1)
                for c in 0..<channels {
                    let i = f * channels + c
                    let mixed = Double(samples[i]) * up + Double(old[(done + f) * channels + c]) * (1 - up)
                    samples[i] = Int16(clamping: Int(mixed.rounded()))
                }
            }
            fade = done + n >= total ? nil : (old, done + n)
        }
    }
}

extension PlayerLoop {
    /// The audio thread's scratch memory: what is decoded before it is written (`main`), and the old track's
    /// frames during a crossfade (`overlap`, as large: a chunk of each is mixed). Allocated once, freed with the
    /// loop.
    struct ScratchBuffers {
        let main = UnsafeMutableRawBufferPointer.allocate(byteCount: 32 * 1024, alignment: 16)
        let overlap = UnsafeMutableRawBufferPointer.allocate(byteCount: 32 * 1024, alignment: 16)

        func deallocate() {
            main.deallocate()
            overlap.deallocate()
        }
    }
}

extension PlayerLoop.Activity {
    // Tests of the case alone, for the audio thread's checks on every pass and every chunk: `==` would
    // compare the payloads, and the faded pauses' carry a track (its path: a copy and a release each time).
    var isIdle: Bool {
        if case .idle = self { return true }
        return false
    }

    var isPlaying: Bool {
        if case .playing = self { return true }
        return false
    }

    var isDrainingToEnd: Bool {
        if case .drainingToEnd = self { return true }
        return false
    }

    /// Pausing with a fade-out, or paused after one (a resume fades in).
    var isFadedPause: Bool {
        switch self {
        case .fadingOut, .fadedOut: true
        case .idle, .playing, .drainingToEnd, .drainingForFormat: false
        }
    }

    /// Where a faded pause goes on (the first frame after the fade-out); nil in any other activity, or
    /// when a start from it was tried already.
    var resumeFrom: PlayerLoop.StartPoint? {
        switch self {
        case .fadingOut(_, _, let point), .fadedOut(let point): point
        case .idle, .playing, .drainingToEnd, .drainingForFormat: nil
        }
    }

    /// A start was tried from here: a faded pause no longer names where it goes on.
    mutating func forgetResumePoint() {
        switch self {
        case .fadingOut(let until, let deadline, _): self = .fadingOut(until: until, deadline: deadline, resumeFrom: nil)
        case .fadedOut: self = .fadedOut(resumeFrom: nil)
        case .idle, .playing, .drainingToEnd, .drainingForFormat: break
        }
    }

    /// The fade-out was heard: the pause is complete, going on from where the fade ended.
    mutating func fadeHeard() {
        if case .fadingOut(_, _, let point) = self { self = .fadedOut(resumeFrom: point) }
    }
}
