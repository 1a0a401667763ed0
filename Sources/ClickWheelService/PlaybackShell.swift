public import ClickWheelCore
import Foundation
import Library
public import Logging
public import Playback

/// The playback shell: carries out the engine's playback commands on the real audio player
/// (libmpg123 → PulseAudio/PipeWire, or a silent null output) and turns the player's reports back into
/// engine events. The engine owns the queue; this shell keeps a copy to know which file an index is,
/// and hands the player the following track early so albums play without a gap.
///
/// Thread rules: `perform` and `translate` run on the engine loop's queue only.
public final class PlaybackShell: PlaybackPort {
    /// The audio player (its own thread); the audio service reads its reports and stops it.
    public let player: AudioPlayer
    private let library: any LibraryReading
    private let musicFolder: String
    private let logger: Logger
    private var queue: [TrackID] = []
    /// Which queue entry each handed-over track stands for (the player reports its own ids).
    private var tokens: [Int: Int] = [:]
    private var nextToken = 1
    /// Sound Check uses the album's gain (where the track has one) rather than the track's.
    private var albumGain = false
    private var current: (token: Int, index: Int)?
    private var queuedNext: (token: Int, index: Int, track: TrackID)?
    /// The ticket of the last command that set what the player does (play, pause, resume, seek, stop):
    /// a report made before the player carried it out is stale (see `translate`).
    private var lastStateTicket: UInt64 = 0

    public init(player: AudioPlayer, library: any LibraryReading, musicFolder: String, logger: Logger) {
        self.player = player
        self.library = library
        self.musicFolder = musicFolder
        self.logger = logger
    }

    /// Switching between the track's and the album's gain takes effect from the next track handed to
    /// the player (the one playing keeps the gain it opened with); on and off at once.
    public func setSoundCheck(_ on: Bool, album: Bool) {
        albumGain = album
        player.setSoundCheck(on)
    }

    public func click(volume: Int) { player.click(volume: volume) }

    public func perform(_ command: PlaybackCommand, following: (Int) -> Int?) {
        switch command {
        case .replaceQueue(let ids, let index):
            queue = ids
            if let index, let c = current {
                current = (c.token, index)
                tokens[c.token] = index
            }
            handOverNext(following)
        case .insert(let ids, let at):
            queue.insert(contentsOf: ids, at: min(max(0, at), queue.count))
            if let c = current, at <= c.index {
                current = (c.token, c.index + ids.count)
                tokens[c.token] = c.index + ids.count
            }
            handOverNext(following)
        case .play(let index):
            // After a track ended the engine asks for the next one, which the player is already joining
            // without a gap: take it as current and hand over the one after it.
            if endedIndex != nil, let q = queuedNext, q.index == index {
                current = (q.token, q.index)
                queuedNext = nil
                endedIndex = nil
                handOverNext(following)
                return
            }
            endedIndex = nil
            start(index, following)
        case .pause: lastStateTicket = player.pause()
        case .resume: lastStateTicket = player.resume()
        case .stop:
            lastStateTicket = player.stop()
            current = nil
            queuedNext = nil
        case .seek(let ms): lastStateTicket = player.seek(to: Double(ms) / 1000)
        case .volume(let v): player.setVolume(v)
        case .spokenWordSpeed(let percent): player.setSpokenWordSpeed(SpokenWordSpeed.value(percent))
        case .crossfade(let seconds): player.setCrossfade(seconds: seconds)
        }
    }

    /// The entry whose end the player reported, until the engine says what follows.
    private var endedIndex: Int?

    private func start(_ index: Int, _ following: (Int) -> Int?) {
        guard let track = audioTrack(index) else { return }
        current = (track.id, index)
        queuedNext = nil
        lastStateTicket = player.play(track)
        handOverNext(following)
    }

    /// Gives the player the entry after the current one, so it can join it without a gap.
    private func handOverNext(_ following: (Int) -> Int?) {
        guard let c = current, let n = following(c.index), queue.indices.contains(n) else {
            queuedNext = nil
            player.enqueueNext(nil)
            return
        }
        // Already handed over: the same index still holding the same track (a queue edit may have
        // moved another track there).
        if let q = queuedNext, q.index == n, q.track == queue[n] { return }
        guard let track = audioTrack(n) else {
            queuedNext = nil
            player.enqueueNext(nil)
            return
        }
        queuedNext = (track.id, n, queue[n])
        player.enqueueNext(track)
    }

    private func audioTrack(_ index: Int) -> AudioTrack? {
        guard queue.indices.contains(index), let file = playableFile(queue[index]) else { return nil }
        let token = nextToken
        nextToken += 1
        tokens[token] = index
        // Sound Check's gain from the index; the player applies it only while Sound Check is on.
        let album = albumGain ? file.albumGain.map { ReplayGain(gain: $0, peak: file.albumPeak) } : nil
        let gain = album ?? file.gain.map { ReplayGain(gain: $0, peak: file.peak) }
        // Podcasts and audiobooks play at the spoken-word speed (Settings → Audiobooks).
        let spokenWord = (try? library.track(queue[index]))??.isSpokenWord ?? false
        return AudioTrack(id: token, pathBytes: Array(musicFolder.utf8) + [UInt8(ascii: "/")] + file.relativePath,
                          replayGain: gain, spokenWord: spokenWord)
    }

    /// The file's exact name bytes (a name that is not valid UTF-8 plays too) and its gain.
    private func playableFile(_ id: TrackID) -> PlayableFile? {
        if let store = library as? LibraryStore { return try? store.playableFile(id) }
        return (try? library.track(id)).flatMap { $0 }.map { PlayableFile(relativePath: Array($0.path.utf8)) }
    }

    /// Translates a player report into the engine's terms (nil: nothing the engine needs).
    ///
    /// A report can never undo a later command. The engine sets playing, paused and stopped itself
    /// when it sends the command, so the player's echoes of them (`paused` by command, `resumed`) are
    /// not passed on; only a pause the player made by itself (the sink went away) is. A report made
    /// before the player carried out the latest play, pause, resume, seek or stop is stale: its
    /// position or start is dropped (`play` then `pause 1` at once must end paused, `seekcur` must not
    /// jump back). That a track ended or failed is passed on while it is the current stream's, stale
    /// or not: the player has moved on to the next track whatever came after.
    public func translate(_ event: PlayerEvent) -> PlaybackReport? {
        let stale = event.after < lastStateTicket
        switch event.report {
        case .started(let token):
            guard !stale, token == current?.token || token == queuedNext?.token else { return nil }
            return tokens[token].map { .started(index: $0) }
        case .position(let token, let seconds):
            guard !stale, current?.token == token else { return nil }
            return .position(ms: Int(seconds * 1000))
        case .finished(let token):
            guard let c = current, c.token == token else { return nil }
            endedIndex = c.index
            return .finished(index: c.index)
        case .failed(let token, let reason):
            logger.warning("playback: cannot play: \(reason)")
            guard token == current?.token || token == queuedNext?.token else { return nil }
            return tokens[token].map { .failed(index: $0, message: reason) }
        case .paused(.outputRemoved):
            return .paused
        case .paused(.command), .resumed:
            return nil
        case .stopped:
            return nil
        case .outputUnavailable(let reason):
            logger.warning("audio: no sound server (\(reason)); playback starts when it appears")
            return nil
        case .outputAvailable(let server):
            logger.info("audio: connected to \(server)")
            return nil
        case .outputHealth(.audible):
            return .outputs(nil)
        case .outputHealth(.silent(let faults)):
            return .outputs(OutputProblem(outputs: faults.map(\.name), message: Self.mpdError(faults)))
        }
    }

    /// The `error:` MPD 0.23 gives in `status` when no output could be opened: the first enabled output's
    /// failure (`Failed to enable output "NAME" (PLUGIN); REASON`, as its pulse output says with no server
    /// there), or "All audio outputs are disabled".
    static func mpdError(_ faults: [OutputFault]) -> String {
        guard let f = faults.first else { return "All audio outputs are disabled" }
        return "Failed to enable output \"\(f.name)\" (\(f.plugin)); \(f.reason)"
    }
}
