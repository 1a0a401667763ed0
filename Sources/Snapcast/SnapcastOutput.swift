import Foundation
public import Playback
public import Logging
import NamedThreads

/// An `AudioOutput` that feeds a snapserver source (`tcp://…?mode=server` or a `pipe://` FIFO) at
/// 44100:16:2, paced in real time by its own sender thread.
///
/// Why 44100:16:2 (the snapserver source must say `sampleformat=44100:16:2`): nearly every MP3 is 44.1 kHz
/// stereo, so the PCM goes out bit for bit with no resampling cost on a Pi (Snapcast's default 48000 would
/// resample every track); the rare 32/48 kHz or mono track is converted here (`PCMConverter`).
///
/// snapserver reads a tcp or pipe source as fast as it is fed (socket backpressure only), and stamps
/// chunks as it reads them: PCM sent early would be heard early and a pause would reach the rooms a buffer
/// late. So the audio thread only queues (`write`, up to `bufferMilliseconds`), and the sender thread
/// hands the queue to the server as the wall clock advances, a little (`leadMilliseconds`) ahead. The
/// output's clock (`playedFrames`) is what was handed over, as a sound card's would be. Nothing is sent
/// while paused: snapserver marks the stream idle and its clients play silence; sync is kept because
/// each chunk is stamped when it is read.
///
/// A server that is down, restarts or refuses: one log line, a new attempt every second, and PCM keeps
/// being taken at real-time pace meanwhile (dropped), so the player and any other output go on as if the
/// rooms were there; one line again when it is back. Nothing here blocks the audio thread: it only
/// touches the queue under the lock; connects and writes happen on the sender thread.
///
/// Thread rules: the `AudioOutput` methods on the audio thread only; the sender thread owns the link.
public final class SnapcastOutput: ClockFollowingOutput {
    /// The stream format the snapserver source is configured with.
    public static let streamFormat = PCMFormat(sampleRate: 44_100, channels: 2)
    public static let retryInterval = 1.0
    static let bufferMilliseconds = 150
    static let leadMilliseconds = 40
    /// As a second output: how far ahead of the first output's clock the server is fed (more than the
    /// audio thread's longest pass between clock readings, so snapserver's 20 ms reads never wait).
    static let followLeadMilliseconds = 200
    /// As a second output beside a sound card, the queue may run ahead of the wall clock by the card's
    /// drift; beyond this much the oldest PCM is dropped rather than sent late.
    static let maxQueueMilliseconds = 1000

    public let target: SnapcastTarget
    private let shared: SnapcastShared
    private let logger: Logger
    private var sender: NamedThread?

    public init(target: SnapcastTarget, logger: Logger = Logger(label: "clickwheel.snapcast")) {
        self.target = target
        self.logger = logger
        shared = SnapcastShared()
        // A FIFO whose reader went away raises SIGPIPE on write: the error is wanted, not the signal's
        // default (ending the process). Sockets use MSG_NOSIGNAL.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        shared.withLock { $0.shutdown = true }
        sender?.join()
    }

    /// True while the server takes the PCM (for the outputs list and "No audio output").
    public var isLinked: Bool { shared.withLock { $0.linked } }

    /// Why the server does not take the PCM (the last attempt's error), nil while it does or before the
    /// first attempt.
    public var unreachable: String? { shared.withLock { $0.linkError } }

    /// Starts the sender thread (once); it connects in the background. Never throws: a server that is not
    /// there yet is waited for without holding the audio thread.
    public func connect(wake: @escaping @Sendable () -> Void) throws(AudioOutputError) -> String {
        shared.withLock { $0.wake = wake }
        if sender == nil {
            let shared = self.shared, target = self.target, logger = self.logger
            do {
                sender = try NamedThread(name: "cw-snapcast") {
                    SnapcastSender(shared: shared, target: target, logger: logger).run()
                }
            } catch {
                throw AudioOutputError("\(error)", serverGone: true)
            }
        }
        return "snapcast \(target)"
    }

    public func disconnect() { closeStream() }

    public func openStream(format: PCMFormat, volume: Int, paused: Bool) throws(AudioOutputError) {
        open(format: format, volume: volume, paused: paused, following: false)
    }

    /// As a second output: paced by the first one's clock (`follow`) from the start. Said here, not learnt
    /// from the first `follow` call: the sender's first pass may come before it, and paced by the wall clock
    /// meanwhile it sent its 40 ms lead, then nothing until the first output's clock moved: snapserver ran
    /// dry and resynced, a gap heard in every room.
    public func openFollowingStream(format: PCMFormat, volume: Int, paused: Bool) {
        open(format: format, volume: volume, paused: paused, following: true)
    }

    private func open(format: PCMFormat, volume: Int, paused: Bool, following: Bool) {
        shared.withLock { s in
            s.reset(format: format)
            s.following = following
            s.paused = paused
            s.volume = volume
        }
    }

    public func closeStream() { shared.withLock { $0.reset(format: nil) } }

    public var hasStream: Bool { shared.withLock { $0.format != nil } }

    public func writableBytes() -> Int {
        shared.withLock { s in
            guard let f = s.format else { return 0 }
            let capacity = f.sampleRate * Self.bufferMilliseconds / 1000
            return max(0, capacity - s.queuedFrames) * f.frameSize
        }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) {
        try shared.withLock { s throws(AudioOutputError) in
            guard s.format != nil else { throw AudioOutputError("no stream open", serverGone: false) }
            s.append(bytes)
        }
    }

    public func write(_ bytes: UnsafeRawBufferPointer, at frame: Int64) throws(AudioOutputError) {
        try shared.withLock { s throws(AudioOutputError) in
            guard s.format != nil else { throw AudioOutputError("no stream open", serverGone: false) }
            s.truncate(at: frame)
            s.append(bytes)
        }
    }

    public func setPaused(_ paused: Bool) throws(AudioOutputError) {
        shared.withLock { s in
            s.paused = paused
            s.anchor = nil
        }
    }

    public func readFrame() throws(AudioOutputError) -> Int64 { shared.withLock { $0.played } }

    public func rewindWrites() throws(AudioOutputError) -> Int64 {
        shared.withLock { s in
            s.truncate(at: s.played)
            return s.played
        }
    }

    public func flush() throws(AudioOutputError) -> Int64 { try rewindWrites() }

    public func drain() throws(AudioOutputError) { shared.withLock { $0.draining = true } }

    public func cancelDrain() { shared.withLock { $0.draining = false } }

    /// The volume is applied to the samples (the rooms' own volumes are Snapcast's), on PulseAudio's
    /// cubic scale so the wheel sounds the same in every room.
    public func setVolume(_ volume: Int) throws(AudioOutputError) { shared.withLock { $0.volume = volume } }

    public func playedFrames() -> Int64? { shared.withLock { $0.format == nil ? nil : $0.played } }

    /// As a second output: paces the sender by the first output's clock (`frame`: where it plays now, in
    /// this output's stream frames) instead of the wall clock. A sound card starts playing a while after
    /// the first write (its prebuffer, the server's latency; longer on a loaded machine) and drifts from
    /// the wall clock: paced by the wall clock from the first write, this output would run ahead and dry.
    /// Nothing is sent before that clock first moves: snapserver times its reads from the first chunk,
    /// and a sound card that takes longer than the lead to start would leave it waiting (a resync, heard
    /// as a gap in every room).
    public func follow(frame: Int64) {
        shared.withLock { s in
            if s.followBase == nil { s.followBase = frame }
            s.follow = frame
        }
    }

    /// The click is for the hand on the wheel, not for the rooms.
    public func playClick(volume: Int) {}

    public func takeEvents() -> [AudioOutputEvent] {
        shared.withLock { s in
            defer { s.events = [] }
            return s.events
        }
    }
}

/// The state the audio thread and the sender share.
///
/// `@unchecked Sendable`: every field of `state` is read and written only with `condition` held
/// (`withLock`); the condition also wakes the sender when there is PCM to send.
final class SnapcastShared: @unchecked Sendable {
    struct State {
        var format: PCMFormat?
        /// PCM in `format`, from `head` on not yet sent.
        var queue: [UInt8] = []
        var head = 0
        /// Frames handed over (or dropped while the server is away) since the stream opened: the clock.
        var played: Int64 = 0
        var paused = false
        var draining = false
        var volume = 100
        /// Bumped when a new stream opens: the sender resets its converter.
        var generation = 0
        /// Wall time and `played` when real-time pacing last started (nil: not pacing).
        var anchor: (time: Double, frame: Int64)?
        /// This stream is paced by the first output's clock (`follow`), not the wall clock.
        var following = false
        /// The first output's clock, when this one is a second output (`follow`); nil: not read yet.
        var follow: Int64?
        /// The first clock reading of this stream: sending starts once the clock has moved past it.
        var followBase: Int64?
        var events: [AudioOutputEvent] = []
        var linked = false
        /// The sender waits for a change (nothing to send, or no server) rather than ticking: the audio
        /// thread's calls wake it (`withLock`). While it ticks they do not: a wake on each of the audio thread's
        /// dozen calls a pass cost a sender pass each.
        var senderIdle = true
        /// The audio thread changed something since the sender last waited.
        var poked = false
        /// The last failed attempt's error while not linked (nil: linked, or not tried yet).
        var linkError: String?
        var shutdown = false
        var wake: (@Sendable () -> Void)?

        var queuedFrames: Int { format.map { (queue.count - head) / $0.frameSize } ?? 0 }

        /// The sender's link came up (`error` nil) or failed; wakes the audio thread when that changes
        /// whether the rooms hear anything (it reports "No audio output" when nothing else plays).
        mutating func setLink(error: String?) {
            let changed = (error == nil) != (linkError == nil) || !linked && error == nil
            linked = error == nil
            linkError = error
            if changed { wake?() }
        }

        mutating func reset(format: PCMFormat?) {
            self.format = format
            queue = []
            head = 0
            played = 0
            draining = false
            anchor = nil
            following = false
            follow = nil
            followBase = nil
            generation += 1
        }

        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            guard let f = format else { return }
            if head > 0 && head >= queue.count / 2 {
                queue.removeFirst(head)
                head = 0
            }
            queue.append(contentsOf: bytes.prefix(bytes.count / f.frameSize * f.frameSize))
            let limit = f.sampleRate * SnapcastOutput.maxQueueMilliseconds / 1000
            let excess = queuedFrames - limit
            if excess > 0 {
                head += excess * f.frameSize
                played += Int64(excess)
            }
        }

        /// Drops what is queued from stream frame `frame` on (what was sent stays sent).
        mutating func truncate(at frame: Int64) {
            guard let f = format else { return }
            let keep = max(0, min(Int64(queuedFrames), frame - played))
            queue.removeSubrange((head + Int(keep) * f.frameSize)...)
        }
    }

    private let condition = NSCondition()
    private var state = State()

    /// The audio thread's access (and the output's): runs `body` under the lock and wakes the sender if it
    /// waits for a change.
    func withLock<T, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        condition.lock()
        defer {
            state.poked = true
            if state.senderIdle || state.shutdown { condition.broadcast() }
            condition.unlock()
        }
        return try body(&state)
    }

    /// The sender's own access: runs `body` under the lock, waking nobody.
    func senderLock<T>(_ body: (inout State) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(&state)
    }

    /// Sender: waits up to `seconds` (when idle: until the audio thread changes something; a change made
    /// since the last wait ends it at once), then runs `body` under the lock.
    func wait<T>(_ seconds: Double, _ body: (inout State) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        if seconds > 0 && !(state.senderIdle && state.poked) {
            _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
        }
        state.poked = false
        return body(&state)
    }
}
