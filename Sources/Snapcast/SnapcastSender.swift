import Foundation
import Playback
import Logging

/// The snapcast output's sender thread: keeps the link to snapserver up (one attempt a second while it is
/// down) and hands it the queued PCM at real-time pace.
///
/// Thread rules: runs on its own thread (`cw-snapcast`) until the output is released; the only code that
/// touches the link; blocking connects and writes happen here, never on the audio thread.
struct SnapcastSender {
    let shared: SnapcastShared
    let target: SnapcastTarget
    let logger: Logger
    /// How often the queue is looked at while playing, paced by the wall clock (this output alone: its lead
    /// is 40 ms).
    static let tick = 0.01
    /// The same beside another output, paced by its clock: the server is fed `followLeadMilliseconds` (200)
    /// ahead, so a pass every 100 ms still leaves it 100 ms in hand, at a tenth of the passes (each a wakeup,
    /// a lock, a conversion and a `send`: most of what this output costs).
    static let followTick = 0.1

    func run() {
        var link: SnapcastLink?
        var nextAttempt = 0.0
        var downReported = false
        var converter = PCMConverter(targetRate: SnapcastOutput.streamFormat.sampleRate)
        var generation = -1
        var out: [Int16] = []
        var chunk: [UInt8] = []
        var pause = 0.0
        while true {
            if link == nil, Self.now() >= nextAttempt {
                var failure: String?
                do {
                    link = try SnapcastLink.open(target)
                    logger.info("snapcast: sending to \(target)")
                    downReported = false
                } catch {
                    failure = error.description
                    nextAttempt = Self.now() + SnapcastOutput.retryInterval
                    if !downReported {
                        downReported = true
                        logger.warning("snapcast: \(error); the rooms are silent, retrying every second")
                    }
                }
                shared.senderLock { $0.setLink(error: failure) }
            }
            // Take the frames due now (or nothing), under the lock.
            chunk.removeAll(keepingCapacity: true)
            var format: PCMFormat?
            var gain = 1.0
            let stop = shared.wait(pause) { s -> Bool in
                if s.shutdown { return true }
                guard let f = s.format, !s.paused, s.queuedFrames > 0 else {
                    s.anchor = nil
                    if s.draining, s.format != nil, s.queuedFrames == 0 {
                        s.draining = false
                        s.events.append(.drained)
                        s.wake?()
                    }
                    return false
                }
                let due: Int64
                if s.following {
                    // Nothing before the first output's clock has moved past its first reading.
                    if let follow = s.follow, let base = s.followBase, follow > base {
                        due = follow + Int64(f.sampleRate * SnapcastOutput.followLeadMilliseconds / 1000) - s.played
                    } else {
                        due = 0
                    }
                } else {
                    let now = Self.now()
                    let anchor = s.anchor ?? (now, s.played)
                    s.anchor = anchor
                    let lead = f.sampleRate * SnapcastOutput.leadMilliseconds / 1000
                    due = Int64((now - anchor.time) * Double(f.sampleRate)) + Int64(lead) - (s.played - anchor.frame)
                }
                let take = Int(min(due, Int64(s.queuedFrames)))
                if take > 0 {
                    chunk.append(contentsOf: s.queue[s.head..<(s.head + take * f.frameSize)])
                    s.head += take * f.frameSize
                    s.played += Int64(take)
                    format = f
                    gain = Self.gain(s.volume)
                    if s.generation != generation {
                        generation = s.generation
                        converter.reset(for: f)
                    }
                    // No wake for the audio thread here: it polls this output (`wakesWhenWritable` is false) or
                    // follows another one's wakes; a wake per send cost it 100 passes a second, and the
                    // local sink underran at the start of a song on a loaded machine.
                }
                if s.queuedFrames == 0 { s.anchor = nil }
                return false
            }
            if stop { break }
            pause = shared.senderLock { s in
                // Beside another output the queue is often empty after a pass (the audio thread writes no
                // further ahead than the lead): keep ticking then, rather than being woken by each of its calls.
                let streaming = s.format != nil && !s.paused
                let ticking = streaming && (s.following || s.queuedFrames > 0)
                s.senderIdle = !ticking
                if ticking { return s.following ? Self.followTick : Self.tick }
                return link == nil ? min(SnapcastOutput.retryInterval, 0.25) : 0.25
            }
            guard let format, let current = link else { continue }
            // The stream's own format at full volume (nearly every track) goes out as it was queued.
            let asQueued = format == SnapcastOutput.streamFormat && gain >= 1
            if !asQueued {
                out.removeAll(keepingCapacity: true)
                chunk.withUnsafeBytes { converter.convert($0, gain: gain, into: &out) }
            }
            // The error comes back as a value: a typed-throws closure through withUnsafeBytes crashes swiftc 6.3.1.
            let send = { (bytes: UnsafeRawBufferPointer) -> SnapcastLinkError? in
                do throws(SnapcastLinkError) { try current.write(bytes) } catch { return error }
                return nil
            }
            let failure = asQueued ? chunk.withUnsafeBytes(send) : out.withUnsafeBytes(send)
            if let error = failure {
                logger.warning("snapcast: lost \(target) (\(error)); the rooms are silent, retrying every second")
                downReported = true
                link = nil
                nextAttempt = Self.now() + SnapcastOutput.retryInterval
                shared.senderLock { $0.setLink(error: "lost \(target): \(error)") }
            }
        }
    }

    /// Volume 0–100 as an amplitude factor on PulseAudio's cubic scale (50 → 0.125, −18 dB).
    static func gain(_ volume: Int) -> Double {
        let v = Double(max(0, min(100, volume))) / 100
        return v * v * v
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
