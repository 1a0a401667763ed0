import ClickWheelCore
import Dispatch

/// The playback shell for machines without audio output: it keeps the queue and a clock as a player
/// would, reporting starts, positions and track ends to the engine in real time, but plays no sound.
/// The Now Playing screen, skips, seeks and the queue behave as with audio.
///
/// Thread rules: everything runs on the service loop's queue (`queue`); `perform` is called there.
final class SilentPlayback {
    private let library: any LibraryReading
    private let queue: DispatchQueue
    private let report: (PlaybackReport) -> Void
    private var tracks: [TrackID] = []
    private var index: Int?
    private var durationMS = 0
    /// Position at `since` (monotonic ms), and whether the clock runs.
    private var positionMS = 0
    private var since: Int64 = 0
    private var playing = false
    private var timer: (any DispatchSourceTimer)?

    init(library: any LibraryReading, queue: DispatchQueue, report: @escaping (PlaybackReport) -> Void) {
        self.library = library
        self.queue = queue
        self.report = report
    }

    func perform(_ command: PlaybackCommand) {
        switch command {
        case .replaceQueue(let ids, let current):
            tracks = ids
            if let current { index = current } else { stopClock(); index = nil }
        case .insert(let ids, let at):
            tracks.insert(contentsOf: ids, at: min(max(0, at), tracks.count))
            if let i = index, at <= i { index = i + ids.count }
        case .play(let i):
            start(i)
        case .pause:
            positionMS = now()
            playing = false
            report(.paused)
        case .resume:
            guard index != nil else { return }
            since = Self.monotonicMS()
            playing = true
            report(.resumed)
        case .stop:
            stopClock()
            index = nil
        case .seek(let ms):
            positionMS = max(0, min(ms, durationMS))
            since = Self.monotonicMS()
            report(.position(ms: positionMS))
        case .volume:
            break
        }
    }

    private func start(_ i: Int) {
        guard tracks.indices.contains(i) else { return }
        index = i
        durationMS = (try? library.track(tracks[i]))??.durationMS ?? 0
        positionMS = 0
        since = Self.monotonicMS()
        playing = true
        report(.started(index: i))
        if timer == nil {
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
            t.setEventHandler { [weak self] in self?.tick() }
            t.resume()
            timer = t
        }
    }

    private func tick() {
        guard playing, let i = index else { return }
        let position = now()
        if position >= durationMS {
            playing = false
            report(.finished(index: i))
        } else {
            report(.position(ms: position))
        }
    }

    private func now() -> Int { playing ? positionMS + Int(Self.monotonicMS() - since) : positionMS }

    private func stopClock() {
        playing = false
        timer?.cancel()
        timer = nil
    }

    static func monotonicMS() -> Int64 { Int64(DispatchTime.now().uptimeNanoseconds / 1_000_000) }
}
