import Foundation

/// Feeding the output stream: start points, decoding, gapless changes, drains, faults, positions.
///
/// Thread rules: audio thread only (called from `PlayerLoop.run`).
extension PlayerLoop {
    /// One pass while connected: output events first, then a stream if one is due, then writing, then
    /// what the listener hears now.
    func service() {
        let events = output.takeEvents()
        if events.contains(.serverLost) {
            serverLost("the sound server went away")
            return
        }
        for event in events {
            switch event {
            case .serverLost: break
            case .streamFailed: streamLost()
            case .sinkLost: sinkLost()
            case .drained: drained()
            case .underflow: if activity.isPlaying { underrun() }
            }
        }
        if case .fadingOut(let until, let deadline, _) = activity { corkAfterFade(until: until, deadline: deadline) }
        if pendingStart != nil { startPending() }
        if activity.isPlaying && output.hasStream {
            fill()
            uncorkAfterFill()
        }
        if link.isConnected { updatePosition() }
    }

    /// Starts the stream at `pendingStart`: flushes the open stream when the format matches, else opens a
    /// new one. The decoder for that track becomes `tracks.current` (a later one already open goes back to queued).
    func startPending() {
        guard let point = pendingStart else { return }
        pendingStart = nil
        activity.forgetResumePoint()
        if cork == .corkedUntilFilled { cork = .corked }
        // The queue is written anew from here: a speed change's rewrite in progress is over.
        speech.endRewrite()
        overlapAfterStart(at: point)
        do {
            if tracks.current?.track != point.track {
                if let later = tracks.current {
                    try later.seek(toSample: 0)
                    tracks.queued = later
                }
                tracks.current = try Decoders.open(point.track, soundCheck: settings.soundCheck)
            }
        } catch {
            logger.warning("cannot reopen track \(point.track.id): \(error)")
            report(.failed(trackID: point.track.id, reason: error.description))
            stop(reporting: false)
            return
        }
        guard let decoder = tracks.current else { return }
        do {
            try decoder.seek(toSample: point.sample)
            let format = decoder.format
            if output.hasStream && stream.format == format {
                output.cancelDrain()
                if point.fadeIn && !cork.isCorked {
                    // Flush and refill corked, so the server does not play on in silence meanwhile.
                    try output.setPaused(true)
                    cork = .corked
                }
                var frame: Int64
                if point.fadeIn && cork.isCorked {
                    // A faded pause left silence queued after the fade: overwrite it from the frame the server
                    // reads next, with a little more silence first (PulseAudio may lose the first
                    // milliseconds after an uncork: let that be silence, not the start of the fade-in).
                    frame = try output.rewindWrites()
                    frame += try writeSilence(milliseconds: Self.fadeLeadMilliseconds, format: format)
                } else {
                    frame = try output.flush()
                }
                restartStage(for: point.track, format: format, at: frame)
                stream.timeline.restart(
                    at: frame, track: point.track, sample: point.sample, announce: point.announce,
                    speed: speech.stage?.speed ?? 1)
                stream.history.reset(at: frame)
                if point.fadeIn && !paused {
                    cork = .corkedUntilFilled
                } else if cork.isCorked != paused {
                    try output.setPaused(paused)
                    cork = Cork(corked: paused)
                }
            } else {
                output.closeStream()
                try output.openStream(format: format, volume: settings.volume, paused: paused)
                link.streamOpened()
                cork = Cork(corked: paused)
                stream.opened(format)
                restartStage(for: point.track, format: format, at: 0)
                stream.timeline.restart(
                    at: 0, track: point.track, sample: point.sample, announce: point.announce,
                    speed: speech.stage?.speed ?? 1)
            }
            fadeIn = FadeIn(length: point.fadeIn ? Fade.frames(rate: format.sampleRate) : 0)
            activity = .playing
        } catch let error as AudioOutputError {
            pendingStart = point
            outputFailed(error)
        } catch {
            logger.warning("cannot seek in track \(point.track.id): \(error)")
            report(.failed(trackID: point.track.id, reason: "\(error)"))
            stop(reporting: false)
        }
    }

    /// Decodes and writes as much as the stream takes now (more while a speed change rewrites the queue:
    /// up to `speech.coverUntil`). Spoken word at another speed goes through the speech stage: its ready output
    /// is written first, and a decoded chunk is fed to it when it has none.
    func fill() {
        guard let format = stream.format else { return }
        var room = max(output.writableBytes(), Int(max(0, speech.coverUntil - stream.timeline.written)) * format.frameSize)
        while room >= format.frameSize, activity.isPlaying, let decoder = tracks.current {
            var want = min(room, scratch.main.count) / format.frameSize * format.frameSize
            if let before = framesBeforeCrossfade(decoder, format: format) {
                // The overlap started: read the new current track.
                if before == 0 { continue }
                // Read up to the overlap's first frame exactly: the overlap starts on the next pass.
                want = min(want, before * format.frameSize)
            }
            if let stage = speech.stage {
                let ready = stage.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch.main[0..<want]))
                if ready > 0 {
                    guard put(UnsafeMutableRawBufferPointer(rebasing: scratch.main[0..<ready]), format: format) else { return }
                    room -= ready
                    continue
                }
            }
            let chunk = decoder.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch.main[0..<want]))
            let bytes: Int
            switch chunk {
            case .data(let n), .end(let n): bytes = n
            case .failed: bytes = 0
            }
            let whole = bytes / format.frameSize * format.frameSize
            if whole > 0, let stage = speech.stage {
                do {
                    try stage.feed(UnsafeRawBufferPointer(rebasing: scratch.main[0..<whole]))
                } catch {
                    stageFailed(error, format: format)
                    guard put(UnsafeMutableRawBufferPointer(rebasing: scratch.main[0..<whole]), format: format) else { return }
                    room -= whole
                }
            } else if whole > 0 {
                if tracks.overlap != nil { mixOverlap(UnsafeMutableRawBufferPointer(rebasing: scratch.main[0..<whole]), format: format) }
                guard put(UnsafeMutableRawBufferPointer(rebasing: scratch.main[0..<whole]), format: format) else { return }
                room -= whole
            }
            switch chunk {
            case .data: continue
            case .end:
                if decoder.skippedDamage > 0 {
                    logger.notice("track \(decoder.track.id): skipped \(decoder.skippedDamage) damaged stretch(es)")
                }
                currentEnded()
            case .failed(let reason):
                logger.warning("track \(decoder.track.id) stopped decoding: \(reason)")
                report(.failed(trackID: decoder.track.id, reason: reason))
                currentEnded()
            }
        }
    }

    /// The current track is fully written: go on with the queued one in the same stream when the format
    /// matches (gapless), after a drain when it does not, or drain to the end.
    func currentEnded() {
        // A track that ends within its own fade-in (shorter than its length said): the old one goes too.
        tracks.overlap = nil
        if let stage = speech.stage {
            // Gapless between spoken word at the same speed: the stage goes on into the next track, which
            // comes out after what the stage still holds. Anything else lets the stage's rest out first.
            if let next = tracks.queued, next.format == stream.format, speed(for: next.track) == stage.speed, stage.speed != 1 {
                _ = tracks.advance()
                stream.timeline.append(next.track, at: stage.nextInputFrame, speed: stage.speed)
                return
            }
            guard flushStage() else { return }
        }
        guard let next = tracks.queued else {
            // A little silence after the last track: pipewire-pulse cuts the last milliseconds when a
            // drained stream closes (a click at the end of the queue), so what it cuts is silence.
            if let format = stream.format {
                do { _ = try writeSilence(milliseconds: 50, format: format) } catch {
                    outputFailed(error)
                    return
                }
            }
            beginDrain(then: .drainingToEnd)
            return
        }
        _ = tracks.advance()
        if let format = stream.format, next.format == format {
            restartStage(for: next.track, format: format, at: stream.timeline.written)
            stream.timeline.append(next.track, speed: speech.stage?.speed ?? 1)
        } else {
            // Another format: drain, then a new stream starts the next track from its beginning.
            beginDrain(then: .drainingForFormat(sample: 0, announce: true))
        }
    }

    private func beginDrain(then next: Activity) {
        activity = next
        do { try output.drain() } catch { outputFailed(error) }
    }

    /// A drain finished: everything written was heard.
    private func drained() {
        switch activity {
        case .drainingToEnd:
            for t in stream.timeline.finishAll() { report(t.report) }
            tracks.current = nil
            position.heard = nil
            output.closeStream()
            stream.closed()
            activity = .idle
        case .drainingForFormat(let sample, let announce):
            guard let current = tracks.current else { return }
            var transitions = stream.timeline.finishAll()
            // A change inside a track (announce false): that track goes on in the new stream, not finished.
            if !announce, transitions.last == .finished(current.track) { transitions.removeLast() }
            for t in transitions { report(t.report) }
            output.closeStream()
            stream.closed()
            pendingStart = StartPoint(track: current.track, sample: sample, announce: announce)
            startPending()
        case .idle, .playing, .fadingOut, .fadedOut:
            break
        }
    }

    /// The stream died but the server is there: reopen it paused where it was heard (iPod-like: no sound
    /// from somewhere unexpected).
    func streamLost() {
        output.closeStream()
        stream.closed()
        guard !activity.isIdle else { return }
        if pendingStart == nil { pendingStart = resumePoint() }
        if !paused {
            paused = true
            report(.paused(.outputRemoved))
        }
    }

    /// The sink we played on went away: pause. There is nothing to fade out (the sound is gone already), but
    /// the resume fades in like any other: the pause is left as after a fade-out (`fadedOut`, going on from
    /// what was heard last), so `setPaused(false)` rewrites the queue from there with the 40 ms ramp instead
    /// of uncorking what was queued at full level (a click).
    private func sinkLost() {
        guard !paused, !activity.isIdle else { return }
        logger.notice("audio sink removed; pausing")
        paused = true
        if output.hasStream {
            do {
                try output.setPaused(true)
                cork = .corked
            } catch {
                outputFailed(error)
            }
        }
        if activity.isPlaying, output.hasStream, pendingStart == nil {
            updatePosition()
            if let heard = position.heard {
                // `updatePosition` reported the heard track started already.
                activity = .fadedOut(resumeFrom: StartPoint(track: heard.track, sample: heard.sample, announce: false))
                // Drop what is queued: pipewire-pulse otherwise plays a few ms of it at full level before the
                // rewritten fade-in when the stream is uncorked on the new sink (a click).
                do { _ = try output.flush() } catch { outputFailed(error) }
            }
        }
        report(.paused(.outputRemoved))
    }

    /// Reads the stream clock: reports tracks heard to start or finish, and the position now and then.
    func updatePosition() {
        guard output.hasStream, let played = output.playedFrames() else { return }
        for t in stream.timeline.advance(to: played) { report(t.report) }
        guard let now = stream.timeline.position(at: played) else { return }
        // Reports fall on whole multiples of `positionInterval` of the track (each second, by default), a
        // sink period at most after the heard position crosses one: a clock shown from them ticks in
        // step with the music, with one report per second it shows.
        let rate = stream.timeline.rate
        let step = max(1, Int64(positionInterval * Double(rate)))
        let due = position.hear(
            track: now.track, sample: now.sample, step: step, rate: rate, speed: stream.timeline.speed(at: played),
            reporting: !activity.isIdle && !paused, now: Date())
        if due { report(.position(trackID: now.track.id, seconds: Double(now.sample) / Double(rate))) }
    }
}

extension Timeline.Transition {
    var report: PlayerReport {
        switch self {
        case .started(let t): .started(trackID: t.id)
        case .finished(let t): .finished(trackID: t.id)
        }
    }
}
