import Foundation

/// An `AudioOutput` for machines without sound: takes PCM at real-time pace and throws it away.
///
/// It keeps a clock like a sound card would, so positions, track changes and drains behave as with a real
/// server (the player needs no special case). Thread rules: audio thread only, like every `AudioOutput`.
public final class NullAudioOutput: AudioOutput {
    private var format: PCMFormat?
    private var written: Int64 = 0
    private var played: Int64 = 0
    private var paused = false
    private var draining = false
    private var lastTick = Date()
    private var events: [AudioOutputEvent] = []
    /// The buffer it pretends to have, like the pulse output's target.
    private let bufferMilliseconds: Int

    public init(bufferMilliseconds: Int = 150) { self.bufferMilliseconds = bufferMilliseconds }

    public func connect(wake: @escaping @Sendable () -> Void) throws(AudioOutputError) -> String { "null output" }

    public func disconnect() { closeStream() }

    public func openStream(format: PCMFormat, volume: Int, paused: Bool) throws(AudioOutputError) {
        self.format = format
        written = 0
        played = 0
        self.paused = paused
        draining = false
        lastTick = Date()
    }

    public func closeStream() {
        format = nil
        draining = false
    }

    public var hasStream: Bool { format != nil }

    public func writableBytes() -> Int {
        guard let format else { return 0 }
        tick()
        let capacity = Int64(format.sampleRate * bufferMilliseconds / 1000)
        return Int(max(0, capacity - (written - played))) * format.frameSize
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) {
        guard let format else { throw AudioOutputError("no stream open", serverGone: false) }
        tick()
        written += Int64(bytes.count / format.frameSize)
    }

    public func rewindWrites() throws(AudioOutputError) -> Int64 {
        tick()
        written = played
        return written
    }

    public func readFrame() throws(AudioOutputError) -> Int64 {
        tick()
        return played
    }

    public func write(_ bytes: UnsafeRawBufferPointer, at frame: Int64) throws(AudioOutputError) {
        guard let format else { throw AudioOutputError("no stream open", serverGone: false) }
        tick()
        written = max(played, frame) + Int64(bytes.count / format.frameSize)
    }

    public func setPaused(_ paused: Bool) throws(AudioOutputError) {
        tick()
        self.paused = paused
    }

    public func flush() throws(AudioOutputError) -> Int64 {
        tick()
        written = played
        return written
    }

    public func drain() throws(AudioOutputError) { draining = true }

    public func cancelDrain() { draining = false }

    public func setVolume(_ volume: Int) throws(AudioOutputError) {}

    public func playedFrames() -> Int64? {
        guard format != nil else { return nil }
        tick()
        return played
    }

    public func playClick(volume: Int) {}

    public func takeEvents() -> [AudioOutputEvent] {
        tick()
        if draining && played >= written {
            draining = false
            events.append(.drained)
        }
        defer { events = [] }
        return events
    }

    /// Advances the pretend sound card by the wall time since the last look (not while paused).
    private func tick() {
        let now = Date()
        guard let format, !paused, played < written else {
            lastTick = now
            return
        }
        let rate = Double(format.sampleRate)
        let frames = Int64(now.timeIntervalSince(lastTick) * rate)
        played = min(written, played + frames)
        lastTick = lastTick.addingTimeInterval(Double(frames) / rate)
    }
}
