import Foundation
import Sonic

/// Spoken word faster or slower: the speech stage's place in the stream, and speed changes while playing.
///
/// Where the stage sits: after the decoder (so Sound Check's gain, applied in each decoder, is
/// scaled with the rest) and before the fades and the output (which see stream frames). It lives from a
/// start (play, seek, resume, reconnect: made anew at the start point) to a real boundary: it goes on
/// through a gapless change into another spoken-word track at the same speed, and lets its rest out
/// (`flushStage`) before music, the end of the queue, a format change, or a next track when the speed
/// is back at 1 (so 1× is bypassed again from there on, bit-exact).
///
/// Thread rules: audio thread only (called from `PlayerLoop`).
extension PlayerLoop {
    /// The speed `track` plays at: the spoken-word speed for a podcast or audiobook, 1 for music.
    func speed(for track: AudioTrack) -> Double { track.spokenWord ? settings.spokenWordSpeed : 1 }

    /// A new stage for `track` whose output starts at stream frame `frame` (none when it plays as it is).
    func restartStage(for track: AudioTrack, format: PCMFormat, at frame: Int64) {
        speech.stage = nil
        let speed = speed(for: track)
        guard speed != 1 else { return }
        do {
            speech.stage = try SpeechStage(format: format, speed: speed, base: frame)
        } catch {
            logger.warning("spoken-word speed unavailable (\(error)); track \(track.id) plays at 1×")
        }
    }

    /// Lets the rest of the stage out into the stream and drops the stage; false when the output failed.
    func flushStage() -> Bool {
        guard let stage = speech.stage, let format = stream.format else { return true }
        speech.stage = nil
        do { try stage.flush() } catch { logger.warning("spoken-word speed: \(error); its last milliseconds are lost") }
        let all = UnsafeMutableRawBufferPointer(rebasing: scratch.main[0..<(scratch.main.count / format.frameSize * format.frameSize)])
        while case let n = stage.read(into: all), n > 0 {
            guard put(UnsafeMutableRawBufferPointer(rebasing: scratch.main[0..<n]), format: format) else { return false }
        }
        return true
    }

    /// libsonic could not take more (out of memory): the rest of the track plays at 1× from what was fed.
    func stageFailed(_ error: SonicError, format: PCMFormat) {
        guard let stage = speech.stage, let track = tracks.current?.track else { return }
        logger.warning("spoken-word speed failed (\(error)); track \(track.id) goes on at 1×")
        let sample = stream.timeline.position(at: stage.nextInputFrame)?.sample ?? 0
        speech.stage = nil
        stream.timeline.respeed(at: stream.timeline.written, track: track, sample: sample, speed: 1)
    }

    /// Writes output frames into the stream: the fade-in of a resume and the crossfade of a speed change
    /// applied, at `speech.rewriteAt` when a rewrite starts; keeps the timeline and the history. False when the
    /// output failed (handled).
    func put(_ bytes: UnsafeMutableRawBufferPointer, format: PCMFormat) -> Bool {
        let frames = bytes.count / format.frameSize
        let samples = bytes.bindMemory(to: Int16.self)
        // Each part is looked at before it is changed: a change is a checked exclusive access, and mostly
        // there is no fade-in, no speed change's fade and no rewrite to take.
        if fadeIn != .none, let ramp = fadeIn.advance(by: frames) {
            Fade.apply(samples, channels: format.channels, offset: ramp.offset, length: ramp.length, rising: true)
        }
        if speech.fade != nil { speech.mixFade(into: samples, frames: frames, channels: format.channels) }
        do {
            if speech.rewriteAt != nil, let frame = speech.takeRewriteAt() {
                try output.write(UnsafeRawBufferPointer(bytes), at: frame)
            } else {
                try output.write(UnsafeRawBufferPointer(bytes))
            }
        } catch {
            outputFailed(error)
            return false
        }
        stream.timeline.wrote(frames: Int64(frames))
        stream.history.record(UnsafeRawBufferPointer(bytes))
        return true
    }

    /// Settings → Audiobooks changed. Spoken word being heard changes speed within ~100 ms, without a
    /// click: from a little past what the server reads now (`fadeLeadMilliseconds`), the queue is written
    /// again at the new speed from the same place in the track, the first `Fade.milliseconds` crossfaded
    /// with what was queued there (from `stream.history`). A start (play, seek, resume) picks the speed up by
    /// itself; music is not touched.
    func setSpokenWordSpeed(_ value: Double) {
        guard settings.setSpokenWordSpeed(value) else { return }
        // (Not during a crossfade: neither of its tracks is spoken word; the new speed applies from the next start.)
        guard activity.isPlaying, pendingStart == nil, tracks.overlap == nil, output.hasStream, let format = stream.format,
            let decoder = tracks.current,
            decoder.track.spokenWord || speech.stage != nil || stream.timeline.segments.contains(where: { $0.track.spokenWord })
        else { return }
        do {
            let start = try output.readFrame() + Int64(format.sampleRate * Self.fadeLeadMilliseconds / 1000)
            guard let here = stream.timeline.position(at: start) else { return }
            let count = min(Int64(Fade.frames(rate: format.sampleRate)), stream.timeline.written - start)
            // (Music heard before a spoken-word track already being written is rewritten too, unchanged: the
            // spoken-word track then gets its stage at the join, at the new speed.)
            guard count > 0, let old = stream.history.frames(from: start, count: Int(count)) else {
                // Nothing queued past the lead (the stream ran dry): start again from what is heard, like a
                // seek (there is no sound to click).
                pendingStart = StartPoint(track: here.track, sample: here.sample, announce: !stream.timeline.isHeard(at: start))
                startPending()
                return
            }
            if decoder.track != here.track {
                // The next track is being written already: the one heard decodes again, the next waits.
                try decoder.seek(toSample: 0)
                tracks.queued = decoder
                tracks.current = try Decoders.open(here.track, soundCheck: settings.soundCheck)
            }
            try tracks.current?.seek(toSample: here.sample)
            let cover = stream.timeline.written
            restartStage(for: here.track, format: format, at: start)
            stream.timeline.respeed(at: start, track: here.track, sample: here.sample, speed: speech.stage?.speed ?? 1)
            stream.history.reset(at: start)
            speech.rewrite(from: start, coverUntil: cover, old: old)
            fill()
        } catch let error as AudioOutputError {
            outputFailed(error)
        } catch {
            logger.warning("speed change: cannot decode track again (\(error)); it stops")
            if let track = tracks.current?.track { report(.failed(trackID: track.id, reason: "\(error)")) }
            stop(reporting: false)
        }
    }
}
