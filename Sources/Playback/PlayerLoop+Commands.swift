import Foundation

/// The commands the engine sends, carried out on the audio thread.
///
/// Thread rules: audio thread only (called from `PlayerLoop.run`).
extension PlayerLoop {
    func handle(_ command: PlayerCommand) {
        switch command {
        case .play(let track, let seconds): play(track, seconds: seconds)
        case .enqueueNext(let track): enqueue(track)
        case .pause: setPaused(true)
        case .resume: setPaused(false)
        case .seek(let seconds): seek(to: seconds)
        case .stop: stop(reporting: true)
        case .volume(let v): setVolume(v)
        case .soundCheck(let on): setSoundCheck(on)
        case .spokenWordSpeed(let speed): setSpokenWordSpeed(speed)
        case .crossfade(let seconds): setCrossfade(seconds)
        case .click(let v): if link.isConnected { output.playClick(volume: v) }
        case .outputEnabled(let index, let on):
            guard let outputs = output as? MultiOutput else { break }
            outputs.setEnabled(index, on)
            // Turned on while nothing could play: try it now rather than at the next retry.
            if on { link.retryNow() }
        case .shutdown: shuttingDown = true
        }
    }

    /// Replaces whatever plays with `track` from `seconds`; clears the queued next track and any pause.
    private func play(_ track: AudioTrack, seconds: Double) {
        tracks.queued = nil
        // A skip cuts, as in MPD: an overlap being written is dropped with the rest of the queue.
        tracks.overlap = nil
        paused = false
        let decoder: any TrackDecoder
        do {
            decoder = try Decoders.open(track, soundCheck: settings.soundCheck)
        } catch {
            logger.warning("skipping track \(track.id): \(error)")
            report(.failed(trackID: track.id, reason: error.description))
            stop(reporting: false)
            return
        }
        tracks.current = decoder
        position.heard = nil
        activity = .playing
        let sample = Int64(max(0, seconds) * Double(decoder.format.sampleRate))
        pendingStart = StartPoint(track: track, sample: sample, announce: true)
        if link.isConnected { startPending() }
    }

    /// Sets (or with nil clears) the track that follows the current one without a gap. It is opened and
    /// its first frame decoded now, so a bad file is reported before it is due.
    private func enqueue(_ track: AudioTrack?) {
        tracks.queued = nil
        guard let track else { return }
        do {
            tracks.queued = try Decoders.open(track, soundCheck: settings.soundCheck)
        } catch {
            logger.warning("skipping queued track \(track.id): \(error)")
            report(.failed(trackID: track.id, reason: error.description))
            return
        }
        if activity.isDrainingToEnd {
            // It came while the last track drained: keep writing into the same stream instead.
            output.cancelDrain()
            activity = .playing
            currentEnded()
        }
    }

    /// Pauses with a fade-out where audio is moving (see `fadeOut`), resumes a faded pause with a fade-in
    /// from where the fade ended; otherwise corks or uncorks.
    private func setPaused(_ pause: Bool) {
        guard pause != paused else { return }
        paused = pause
        if pause, fadeOut() {
            report(.paused(.command))
            return
        }
        if !pause, activity.isFadedPause {
            if var point = activity.resumeFrom ?? resumePoint() {
                point.fadeIn = true
                pendingStart = point
                if link.isConnected { startPending() }
            } else {
                activity = .playing
            }
            report(.resumed)
            return
        }
        if !pause, pendingStart != nil {
            // A stream still to be opened (the old one died while paused, or the server is away): it starts
            // with the fade-in too.
            pendingStart?.fadeIn = true
        }
        if output.hasStream && cork.isCorked != pause {
            do {
                try output.setPaused(pause)
                cork = Cork(corked: pause)
            } catch {
                outputFailed(error)
            }
        }
        report(pause ? .paused(.command) : .resumed)
    }

    /// Moves within the track being heard (flush, then decode from there); kept paused if paused.
    private func seek(to seconds: Double) {
        guard !activity.isIdle, let point = pendingStart ?? resumePoint() else { return }
        let rate = Double(tracks.current?.format.sampleRate ?? stream.timeline.rate)
        let sample = Int64(max(0, seconds) * rate)
        pendingStart = StartPoint(track: point.track, sample: sample, announce: point.announce)
        if link.isConnected { startPending() }
        report(.position(trackID: point.track.id, seconds: Double(sample) / rate))
    }

    /// Stops and drops the stream so the sink may suspend; the connection stays for clicks.
    func stop(reporting: Bool) {
        tracks.queued = nil
        tracks.current = nil
        tracks.overlap = nil
        if output.hasStream { output.closeStream() }
        stream.closed()
        stream.timeline.clear()
        speech.stage = nil
        speech.endRewrite()
        activity = .idle
        pendingStart = nil
        if cork == .corkedUntilFilled { cork = .corked }
        position.heard = nil
        paused = false
        if reporting { report(.stopped) }
    }

    /// Turns Sound Check on or off, for the tracks open now too (what is already buffered keeps its level).
    private func setSoundCheck(_ on: Bool) {
        settings.soundCheck = on
        tracks.current?.applyReplayGain(on)
        tracks.queued?.applyReplayGain(on)
        tracks.overlap?.outgoing.applyReplayGain(on)
    }

    private func setVolume(_ v: Int) {
        settings.setVolume(v)
        guard output.hasStream else { return }
        do { try output.setVolume(settings.volume) } catch { outputFailed(error) }
    }
}
