import Foundation

/// Pausing and resuming without a click: short fades written into the stream.
///
/// Thread rules: audio thread only (called from `PlayerLoop`).
extension PlayerLoop {
    /// How far past the server's read index the fade-out starts: room for the time the rewrite takes to
    /// reach the server on a loaded machine (what is already read cannot be changed any more).
    static let fadeLeadMilliseconds = 40

    /// Pauses with a fade-out where audio is moving: a little past what the server reads now, the queued
    /// frames (from `stream.history`: exactly what would be heard) are written again ramped down to silence over
    /// `Fade.milliseconds`, and silence over the rest of the queue; the stream is corked once the fade was
    /// heard (`corkAfterFade`). Resuming goes on from the frame after the fade, with a fade-in. A track
    /// change cuts the fade short. False when there is too little queued to fade (the caller corks now).
    func fadeOut() -> Bool {
        guard activity.isPlaying, output.hasStream, !cork.isCorked, let format = stream.format else { return false }
        do throws(AudioOutputError) {
            let lead = Int64(format.sampleRate * Self.fadeLeadMilliseconds / 1000)
            let start = try output.readFrame() + lead
            let end = stream.timeline.written
            let count = Int(min(Int64(Fade.frames(rate: format.sampleRate)), stream.timeline.framesInSegment(from: start)))
            guard count > 0, end > start, let here = stream.timeline.position(at: start),
                var fade = stream.history.frames(from: start, count: count)
            else { return false }
            fade.withUnsafeMutableBufferPointer {
                Fade.apply($0, channels: format.channels, offset: 0, length: count, rising: false)
            }
            // Silence over the rest of the queue, and some more: the cork comes well after the fade (below).
            let silenceUntil = max(end, start + Int64(count) + 2 * Self.corkDelay(format))
            fade += repeatElement(0, count: Int(silenceUntil - start) * format.channels - fade.count)
            let failure = fade.withUnsafeBytes { bytes -> AudioOutputError? in
                do throws(AudioOutputError) { try output.write(bytes, at: start) } catch { return error }
                return nil
            }
            if let failure { throw failure }
            let announce = !stream.timeline.isHeard(at: start)
            stream.timeline.cut(at: start + Int64(count))
            let after = stream.timeline.position(at: start + Int64(count))?.sample ?? here.sample + Int64(count)
            // Cork well after the fade's end, in the silence after it: pipewire-pulse's clock runs ahead of
            // what leaves its graph, so a cork soon after the end cuts the fade's last milliseconds.
            activity = .fadingOut(
                until: start + Int64(count) + Self.corkDelay(format), deadline: Date(timeIntervalSinceNow: 0.8),
                resumeFrom: StartPoint(track: here.track, sample: after, announce: announce))
        } catch {
            outputFailed(error)
        }
        return true
    }

    /// Frames of silence between the fade's end and the cork.
    static func corkDelay(_ format: PCMFormat) -> Int64 { Int64(format.sampleRate * 120 / 1000) }

    /// Writes `milliseconds` of silence; returns the frames written.
    func writeSilence(milliseconds: Int, format: PCMFormat) throws(AudioOutputError) -> Int64 {
        let frames = format.sampleRate * milliseconds / 1000
        let zeros = [Int16](repeating: 0, count: frames * format.channels)
        let failure = zeros.withUnsafeBytes { bytes -> AudioOutputError? in
            do throws(AudioOutputError) { try output.write(bytes) } catch { return error }
            return nil
        }
        if let failure { throw failure }
        return Int64(frames)
    }

    /// Corks the stream once the fade-out was heard (or at `deadline`, should the clock stall).
    func corkAfterFade(until: Int64, deadline: Date) {
        guard output.hasStream else { return }
        guard (output.playedFrames() ?? 0) >= until || Date() >= deadline else { return }
        do {
            try output.setPaused(true)
            cork = .corked
            activity.fadeHeard()
        } catch {
            outputFailed(error)
        }
    }

    /// After a resume's flush the stream stays corked until the fade-in is written (`fill`): uncorked and
    /// empty, the server would run on in silence and drop the start of what comes.
    func uncorkAfterFill() {
        guard cork == .corkedUntilFilled, output.hasStream, let first = stream.timeline.segments.first, stream.timeline.written > first.start
        else { return }
        cork = .corked
        guard !paused else { return }
        do {
            try output.setPaused(false)
            cork = .uncorked
        } catch {
            outputFailed(error)
        }
    }
}

