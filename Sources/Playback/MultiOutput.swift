import Foundation

/// The configured outputs (`pulse`, `snapcast`, `null`), each fed the same PCM, some of them enabled.
///
/// The first enabled output that connects is the primary: its clock, buffer and events drive the player,
/// exactly as when it is the only one. Every other enabled output is a secondary: it gets the same stream
/// (opened, written, rewritten, flushed, paused, drained alongside), but its failures never reach the
/// player: a secondary whose server goes away is dropped and connected again a second later, the primary
/// playing on. Stream frames are the primary's; a secondary that joins mid-stream counts from its own 0,
/// and `offset` maps one onto the other.
///
/// Enabling an output attaches it at once; disabling a secondary detaches it at once; disabling the
/// primary makes the player reconnect (`serverLost`), which picks the next enabled output and goes on
/// from what was heard.
///
/// Thread rules: audio thread only, like every `AudioOutput` (`setEnabled` comes as a player command).
public final class MultiOutput: AudioOutput {
    /// One configured output.
    public struct Descriptor: Sendable {
        public var name: String
        /// `pulse`, `snapcast` or `null` (MPD's `plugin` field).
        public var plugin: String
        public var enabled: Bool
        /// Makes the output on the audio thread.
        public var make: @Sendable () -> any AudioOutput

        public init(name: String, plugin: String, enabled: Bool = true, make: @escaping @Sendable () -> any AudioOutput) {
            self.name = name
            self.plugin = plugin
            self.enabled = enabled
            self.make = make
        }
    }

    final class Entry {
        let descriptor: Descriptor
        var enabled: Bool
        var output: (any AudioOutput)?
        var connected = false
        /// Primary stream frame = this output's stream frame + offset.
        var offset: Int64 = 0
        var nextAttempt = Date.distantPast
        /// Why it is not connected (the last attempt's error, or what dropped it); nil once connected.
        var failure: String?

        init(_ d: Descriptor) {
            descriptor = d
            enabled = d.enabled
        }
    }

    let entries: [Entry]
    private var primary: Entry?
    private var wake: (@Sendable () -> Void)?
    /// The open stream's parameters, for a secondary that joins later.
    private var stream: (format: PCMFormat, volume: Int, paused: Bool)?
    /// The primary frame the next plain `write` lands on.
    private var writeFrame: Int64 = 0
    /// The enabled set no longer contains the primary: report `serverLost` once.
    private var primaryDisabled = false
    static let retryInterval = 1.0

    public init(_ descriptors: [Descriptor]) {
        entries = descriptors.map(Entry.init)
    }

    /// Which outputs are enabled, in configuration order.
    public var enabled: [Bool] { entries.map(\.enabled) }


    public func connect(wake: @escaping @Sendable () -> Void) throws(AudioOutputError) -> String {
        self.wake = wake
        primaryDisabled = false
        var reasons: [String] = []
        var names: [String] = []
        for e in entries where e.enabled {
            if let failure = attach(e) {
                reasons.append("\(e.descriptor.name): \(failure)")
            } else {
                names.append(e.descriptor.name)
            }
        }
        primary = entries.first { $0.connected }
        guard primary != nil else {
            let why = reasons.isEmpty ? "no output is enabled" : reasons.joined(separator: "; ")
            throw AudioOutputError(why, serverGone: true)
        }
        return names.joined(separator: " + ")
    }

    /// Connects `e` (making it first); nil on success, else why not.
    private func attach(_ e: Entry) -> String? {
        let out = e.output ?? e.descriptor.make()
        e.output = out
        let mailboxWake = wake ?? {}
        do {
            _ = try out.connect(wake: mailboxWake)
            e.connected = true
            e.failure = nil
            e.offset = 0
            return nil
        } catch {
            e.connected = false
            e.failure = error.description
            e.nextAttempt = Date(timeIntervalSinceNow: Self.retryInterval)
            return error.description
        }
    }

    /// Opens the running stream on a secondary that joined after it (or lost its own).
    private func join(_ e: Entry) {
        guard let stream, let out = e.output else { return }
        do {
            if let follower = out as? any ClockFollowingOutput {
                follower.openFollowingStream(format: stream.format, volume: stream.volume, paused: stream.paused)
            } else {
                try out.openStream(format: stream.format, volume: stream.volume, paused: stream.paused)
            }
            e.offset = writeFrame
        } catch {
            drop(e, error.description)
        }
    }

    private func drop(_ e: Entry, _ reason: String) {
        e.output?.disconnect()
        e.connected = false
        e.failure = reason
        e.nextAttempt = Date(timeIntervalSinceNow: Self.retryInterval)
    }

    public func disconnect() {
        for e in entries {
            e.output?.disconnect()
            e.connected = false
        }
        primary = nil
        stream = nil
    }

    public func openStream(format: PCMFormat, volume: Int, paused: Bool) throws(AudioOutputError) {
        try requirePrimary().openStream(format: format, volume: volume, paused: paused)
        stream = (format, volume, paused)
        writeFrame = 0
        for e in entries where e.connected && e !== primary {
            e.output?.closeStream()
            join(e)
        }
    }

    public func closeStream() {
        stream = nil
        for e in entries where e.connected { e.output?.closeStream() }
    }

    public var hasStream: Bool { primary?.output?.hasStream ?? false }

    public var wakesWhenWritable: Bool { primary?.output?.wakesWhenWritable ?? false }

    public func writableBytes() -> Int { primary?.output?.writableBytes() ?? 0 }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) {
        try requirePrimary().write(bytes)
        for e in entries where e.connected && e !== primary {
            secondary(e) { o throws(AudioOutputError) in try o.write(bytes) }
        }
        if let f = stream?.format { writeFrame += Int64(bytes.count / f.frameSize) }
    }

    public func write(_ bytes: UnsafeRawBufferPointer, at frame: Int64) throws(AudioOutputError) {
        try requirePrimary().write(bytes, at: frame)
        for e in entries where e.connected && e !== primary {
            let own = frame - e.offset
            secondary(e) { o throws(AudioOutputError) in
                if own >= 0 { try o.write(bytes, at: own) } else { try o.write(bytes) }
            }
        }
        if let f = stream?.format { writeFrame = frame + Int64(bytes.count / f.frameSize) }
    }

    public func setPaused(_ paused: Bool) throws(AudioOutputError) {
        try requirePrimary().setPaused(paused)
        stream?.paused = paused
        for e in entries where e.connected && e !== primary {
            secondary(e) { o throws(AudioOutputError) in try o.setPaused(paused) }
        }
    }

    public func readFrame() throws(AudioOutputError) -> Int64 { try requirePrimary().readFrame() }

    public func rewindWrites() throws(AudioOutputError) -> Int64 {
        let frame = try requirePrimary().rewindWrites()
        realign(at: frame) { o throws(AudioOutputError) in try o.rewindWrites() }
        return frame
    }

    public func flush() throws(AudioOutputError) -> Int64 {
        let frame = try requirePrimary().flush()
        realign(at: frame) { o throws(AudioOutputError) in try o.flush() }
        return frame
    }

    /// After the primary dropped its queue (next write at `frame`), drops the secondaries' too and maps
    /// their next write onto the same frame.
    private func realign(at frame: Int64, _ body: (any AudioOutput) throws(AudioOutputError) -> Int64) {
        writeFrame = frame
        for e in entries where e.connected && e !== primary {
            guard let o = e.output, o.hasStream else { continue }
            do {
                e.offset = frame - (try body(o))
            } catch {
                drop(e, error.description)
            }
        }
    }

    public func drain() throws(AudioOutputError) {
        try requirePrimary().drain()
        for e in entries where e.connected && e !== primary {
            secondary(e) { o throws(AudioOutputError) in try o.drain() }
        }
    }

    public func cancelDrain() { for e in entries where e.connected { e.output?.cancelDrain() } }

    public func setVolume(_ volume: Int) throws(AudioOutputError) {
        stream?.volume = volume
        try primary?.output?.setVolume(volume)
        for e in entries where e.connected && e !== primary {
            secondary(e) { o throws(AudioOutputError) in try o.setVolume(volume) }
        }
    }

    public func playedFrames() -> Int64? { primary?.output?.playedFrames() }

    public func playClick(volume: Int) { for e in entries where e.connected { e.output?.playClick(volume: volume) } }

    /// The primary's events; a secondary's lost server drops it (it is connected again a second later);
    /// secondaries due for another attempt are tried.
    public func takeEvents() -> [AudioOutputEvent] {
        if primaryDisabled {
            primaryDisabled = false
            return [.serverLost]
        }
        for e in entries where e.connected && e !== primary {
            let events = e.output?.takeEvents() ?? []
            if events.contains(.serverLost) {
                drop(e, "the server went away")
            } else if events.contains(.streamFailed) {
                drop(e, "its stream failed")
            } else if events.contains(.sinkLost) {
                drop(e, "its sink went away")
            }
        }
        let now = Date()
        for e in entries where e.enabled && !e.connected && e !== primary && now >= e.nextAttempt && primary != nil {
            if attach(e) == nil { join(e) }
        }
        let events = primary?.output?.takeEvents() ?? []
        // Secondaries that pace themselves (snapcast) follow the primary's clock, read fresh each pass. The
        // clock is read only when such a secondary is there: on PulseAudio each reading takes the sound
        // server loop's lock, and this runs on every pass of the audio thread.
        var clock: Int64??
        for e in entries where e.connected && e !== primary {
            guard let s = e.output as? any ClockFollowingOutput, s.hasStream else { continue }
            if clock == nil { clock = .some(primary?.output?.playedFrames()) }
            if let played = clock ?? nil { s.follow(frame: played - e.offset) }
        }
        return events
    }

    /// Turns output `index` on or off. A secondary joins or leaves at once; the primary turned off makes
    /// the next `takeEvents` report `serverLost` (the player reconnects onto the next enabled output), as
    /// does any output turned on while none plays (the player's retry picks it up).
    public func setEnabled(_ index: Int, _ on: Bool) {
        guard entries.indices.contains(index) else { return }
        let e = entries[index]
        guard e.enabled != on else { return }
        e.enabled = on
        if !on {
            if e === primary {
                primaryDisabled = true
            } else if e.connected {
                e.output?.closeStream()
                drop(e, "turned off")
            }
        } else if primary != nil {
            if attach(e) == nil { join(e) }
        }
    }

    /// Runs `body` on a secondary; a failure drops it (to be connected again), never the primary.
    private func secondary(_ e: Entry, _ body: (any AudioOutput) throws(AudioOutputError) -> Void) {
        guard let o = e.output else { return }
        if !o.hasStream, stream != nil { join(e) }
        guard e.connected, o.hasStream else { return }
        do { try body(o) } catch { drop(e, error.description) }
    }

    /// Whether any enabled output can be heard: connected and, for one that reaches its server in the
    /// background (snapcast), reaching it. Otherwise each enabled output and why not, in configuration
    /// order (none: every output is turned off). An output not tried yet counts as neither.
    public func health() -> OutputHealth {
        var faults: [OutputFault] = []
        for e in entries where e.enabled {
            let why = e.connected ? e.output?.unreachable : (e.failure ?? "not connected yet")
            guard let why else { return .audible }
            faults.append(OutputFault(name: e.descriptor.name, plugin: e.descriptor.plugin, reason: why))
        }
        return .silent(faults)
    }

    private func requirePrimary() throws(AudioOutputError) -> any AudioOutput {
        guard let o = primary?.output else { throw AudioOutputError("no output connected", serverGone: true) }
        return o
    }
}
