public import Pulse
import Synchronization

/// An `AudioOutput` over a PulseAudio (or pipewire-pulse) server, through the async API in `Pulse`.
///
/// Thread rules: audio thread only, like every `AudioOutput`; libpulse callbacks only record events in
/// `OutputSignals` and call `wake`. One threaded mainloop lives as long as the output; the context and the
/// stream are made anew on every connect (a failed context is dead for good).
public final class PulseAudioOutput: AudioOutput {
    /// Target buffer, milliseconds: the top of the 100–200 ms the design allows. PulseAudio sizes the
    /// sink's period from it ((tlength − 2 × minreq) / 2), and every period costs a request, a write
    /// callback, a wakeup of the audio thread and of libpulse's loop thread: the longest buffer means the
    /// fewest wakeups and the most room for a loaded 2-core Pi. Latency is not bought with it: play
    /// starts as soon as the prebuffer is written, pause and seek rewrite or flush the queue, and the
    /// volume is the server's.
    public static let targetLatency = 200
    static let clickName = "clickwheel-click"

    let server: String?
    let applicationName: String
    private var mainloop: PulseMainloop?
    private var context: PulseContext?
    private var stream: PulseStream?
    private var signals: OutputSignals?

    /// `server`: nil for the usual lookup (`$PULSE_SERVER`, client.conf, the user's socket).
    public init(server: String? = nil, applicationName: String = "ClickWheel") {
        self.server = server
        self.applicationName = applicationName
    }

    public func connect(wake: @escaping @Sendable () -> Void) throws(AudioOutputError) -> String {
        disconnect()
        let signals = OutputSignals(wake: wake)
        do {
            let loop = try mainloop ?? PulseMainloop(name: "pulse-loop")
            mainloop = loop
            let ctx = try PulseContext(mainloop: loop, name: applicationName) { event in
                switch event {
                case .state(.failed), .state(.terminated): signals.post(.serverLost)
                case .sinkRemoved(let index): if signals.isOurSink(index) { signals.post(.sinkLost) }
                case .state: break
                }
            }
            try ctx.connect(server: server)
            let click = ClickSound.pcm()
            try ctx.uploadSample(name: Self.clickName, spec: PulseSampleSpec(rate: click.rate, channels: 1), pcm: click.bytes)
            context = ctx
            self.signals = signals
            return ctx.serverDescription
        } catch {
            context = nil
            throw AudioOutputError("\(error)", serverGone: true)
        }
    }

    public func disconnect() {
        stream = nil
        context = nil
        signals = nil
    }

    public func openStream(format: PCMFormat, volume: Int, paused: Bool) throws(AudioOutputError) {
        closeStream()
        guard let context, let signals else { throw AudioOutputError("not connected", serverGone: true) }
        do {
            let spec = PulseSampleSpec(rate: format.sampleRate, channels: format.channels)
            let s = try PulseStream(context: context, name: "\(applicationName) playback", spec: spec) { event in
                switch event {
                case .writable, .started: signals.wake()
                case .underflow: signals.post(.underflow)
                case .drained: signals.post(.drained)
                case .state(.failed), .state(.terminated): signals.post(.streamFailed)
                case .moved(let sink): signals.moved(to: sink)
                case .state: break
                }
            }
            granted = try s.connectPlayback(
                targetLatency: Self.targetLatency, volume: Self.paVolume(volume), corked: paused)
            // Again after connecting: WirePlumber (PipeWire) restores a remembered volume over the one given
            // at connect time.
            try s.setVolume(Self.paVolume(volume))
            signals.moved(to: s.indices.sink)
            stream = s
        } catch {
            throw Self.mapped(error)
        }
    }

    public func closeStream() {
        stream = nil
        clockAtFill = nil
        nextWriteFrame = nil
        gatherUntil = 0
        pending.removeAll(keepingCapacity: true)
        deferredError = nil
    }

    public var hasStream: Bool { stream != nil }

    /// libpulse's write callback wakes the audio thread each time the server asks for data.
    public var wakesWhenWritable: Bool { true }

    /// The buffer the server granted the last stream (`pa_stream_get_buffer_attr`), for logs and tests.
    public private(set) var granted: BufferAttributes?

    public func writableBytes() -> Int {
        guard let stream else { return 0 }
        sendPending()
        let (writable, played) = stream.writableSizeAndPlayedTime()
        clockAtFill = played
        gatherUntil = writable
        return writable
    }

    /// The stream clock read with the last `writableBytes()`, for the `playedFrames()` that follows it in the
    /// same pass of the audio thread (a millisecond or two older than a fresh reading: one lock less per
    /// wakeup). Dropped at the start of each pass (`takeEvents`) and by anything that moves the clock.
    private var clockAtFill: UInt64?

    public func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) {
        if let frame = nextWriteFrame {
            nextWriteFrame = nil
            return try write(bytes, at: frame)
        }
        if let error = deferredError.take() { throw error }
        guard gatherUntil > 0 else {
            do { try requireStream().write(bytes) } catch { throw Self.mapped(error) }
            return
        }
        guard let from = bytes.baseAddress, bytes.count > 0 else { return }
        let start = pending.count
        pending.append(contentsOf: repeatElement(0, count: bytes.count))
        pending.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: start).copyMemory(from: from, byteCount: bytes.count) }
        if pending.count >= gatherUntil { try writePending() }
    }

    /// The plain writes of one pass of the audio thread, gathered into one `pa_stream_write`: a decoder that
    /// hands out one packet a read (Opus's 20 ms, a FLAC or Vorbis block) would otherwise make several writes
    /// per server request, each a message to the server and a wakeup of libpulse's loop thread. Gathering
    /// starts when `writableBytes()` says how much the server asked for and ends when that much is
    /// gathered, or before anything else touches the stream (the next pass's `writableBytes()`, the
    /// `playedFrames()` that ends every pass, a rewrite, cork, flush or drain), so the server sees the same
    /// bytes in the same order, a few milliseconds of decoding later at most. An output that is never asked
    /// `writableBytes()` (a secondary of `MultiOutput`) writes straight through.
    private var pending: [UInt8] = []
    /// Bytes asked for by the server at the last `writableBytes()`; 0: write straight through.
    private var gatherUntil = 0
    /// A gathered write that failed where no error can be thrown (`writableBytes`, `playedFrames`,
    /// `takeEvents`): thrown by the next call that can throw. The stream's or the server's end is also posted as an event by libpulse's thread.
    private var deferredError: AudioOutputError?

    /// Writes what was gathered; from now on writes go straight through until the next `writableBytes()`.
    private func writePending() throws(AudioOutputError) {
        gatherUntil = 0
        if let error = deferredError.take() {
            pending.removeAll(keepingCapacity: true)
            throw error
        }
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        var failure: PulseError?
        pending.withUnsafeBytes { bytes in
            do throws(PulseError) { try requireStream().write(bytes) } catch { failure = error }
        }
        if let failure { throw Self.mapped(failure) }
    }

    /// `writePending()` where nothing can be thrown: a failure waits for the next write.
    private func sendPending() {
        do { try writePending() } catch { deferredError = deferredError ?? error }
    }

    public func setPaused(_ paused: Bool) throws(AudioOutputError) {
        clockAtFill = nil
        try writePending()
        do { try requireStream().cork(paused) } catch { throw Self.mapped(error) }
    }

    public func rewindWrites() throws(AudioOutputError) -> Int64 {
        let frame = try readFrame()
        nextWriteFrame = frame
        return frame
    }

    /// Where the next `write` lands when not simply after the last one (`rewindWrites`).
    private var nextWriteFrame: Int64?

    public func readFrame() throws(AudioOutputError) -> Int64 {
        try writePending()
        do {
            let s = try requireStream()
            return try s.readIndex() / Int64(s.spec.frameSize)
        } catch {
            throw Self.mapped(error)
        }
    }

    public func write(_ bytes: UnsafeRawBufferPointer, at frame: Int64) throws(AudioOutputError) {
        try writePending()
        do {
            let s = try requireStream()
            try s.write(bytes, atIndex: frame * Int64(s.spec.frameSize))
        } catch {
            throw Self.mapped(error)
        }
    }

    public func flush() throws(AudioOutputError) -> Int64 {
        clockAtFill = nil
        try writePending()
        do {
            let s = try requireStream()
            return try s.flush() / Int64(s.spec.frameSize)
        } catch {
            throw Self.mapped(error)
        }
    }

    public func drain() throws(AudioOutputError) {
        try writePending()
        do { try requireStream().drain() } catch { throw Self.mapped(error) }
    }

    public func cancelDrain() { stream?.cancelDrain() }

    public func setVolume(_ volume: Int) throws(AudioOutputError) {
        do { try stream?.setVolume(Self.paVolume(volume)) } catch { throw Self.mapped(error) }
    }

    public func playedFrames() -> Int64? {
        guard let stream else { return nil }
        sendPending()
        let cached = clockAtFill
        clockAtFill = nil
        guard let usec = cached ?? stream.playedTime() else { return nil }
        return Self.frames(usec: usec, rate: stream.spec.rate)
    }

    /// Microseconds of the stream clock as frames at `rate`, or nil for a reading that is no time
    /// (`PulseStream.clock`). Whole seconds and the rest apart, so that no product overflows.
    static func frames(usec: UInt64, rate: Int) -> Int64? {
        guard let usec = PulseStream.clock(usec) else { return nil }
        let seconds = Int64(usec / 1_000_000), rest = Int64(usec % 1_000_000)
        return seconds * Int64(rate) + rest * Int64(rate) / 1_000_000
    }

    public func playClick(volume: Int) {
        guard volume > 0 else { return }
        try? context?.playSample(name: Self.clickName, volume: Self.paVolume(volume))
    }

    public func takeEvents() -> [AudioOutputEvent] {
        clockAtFill = nil
        if stream != nil { sendPending() }
        return signals?.take() ?? []
    }

    /// Volume 0–100 as PulseAudio's own percent scale (`PA_VOLUME_NORM` × v / 100, cubic in amplitude):
    /// 50 is what `pactl set-sink-input-volume … 50%` gives, −18 dB.
    static func paVolume(_ volume: Int) -> UInt32 { UInt32(0x10000 * max(0, min(100, volume)) / 100) }

    private func requireStream() throws(PulseError) -> PulseStream {
        guard let stream else { throw PulseError(operation: "stream", code: 0, message: "no stream open") }
        return stream
    }

    /// A stream error is a server loss when the context died too.
    private static func mapped(_ error: PulseError) -> AudioOutputError {
        AudioOutputError(error.description, serverGone: error.isConnectionLoss)
    }
}

/// What libpulse's loop thread tells the audio thread: pending events and the sinks the stream sat on.
///
/// Thread rules: any thread; state behind a `Mutex`.
final class OutputSignals: Sendable {
    private struct State {
        var events: [AudioOutputEvent] = []
        /// The sink the stream plays on and the one before it (a removed sink moves the stream first).
        var sinks: (current: UInt32?, previous: UInt32?) = (nil, nil)
    }
    private let state = Mutex(State())
    let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    func post(_ event: AudioOutputEvent) {
        state.withLock { $0.events.append(event) }
        wake()
    }

    func take() -> [AudioOutputEvent] { state.withLock { s in defer { s.events = [] }; return s.events } }

    func moved(to sink: UInt32) {
        state.withLock { s in
            if s.sinks.current != sink { s.sinks = (sink, s.sinks.current) }
        }
    }

    func isOurSink(_ index: UInt32) -> Bool {
        state.withLock { $0.sinks.current == index || $0.sinks.previous == index }
    }
}
