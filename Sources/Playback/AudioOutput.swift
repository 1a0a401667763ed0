/// Where decoded PCM goes: a sound server connection with at most one playback stream.
///
/// Thread rules: an output is created, used and released on the audio thread only (it is not `Sendable`).
/// The `wake` closure given to `connect` may be called from any thread (libpulse's loop thread) whenever
/// there is something to look at: room to write, an event in `takeEvents()`.
public protocol AudioOutput: AnyObject {
    /// Connects to the sound server; throws when there is none (the player retries).
    func connect(wake: @escaping @Sendable () -> Void) throws(AudioOutputError) -> String
    /// Drops the stream and the connection.
    func disconnect()
    /// Opens a playback stream for `format` at `volume` (0–100), corked when `paused`. The stream's frame
    /// index starts at 0.
    func openStream(format: PCMFormat, volume: Int, paused: Bool) throws(AudioOutputError)
    /// Drops the stream (what is queued is not played).
    func closeStream()
    /// True while a stream is open.
    var hasStream: Bool { get }
    /// Bytes the stream takes now without growing its buffer beyond the target latency.
    func writableBytes() -> Int
    /// Queues whole frames after what was written before.
    func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError)
    /// Corks (pauses) or uncorks the stream.
    func setPaused(_ paused: Bool) throws(AudioOutputError)
    /// The stream frame the server reads next, fresh from the server: frames from there to the last written
    /// one are queued, not yet played.
    func readFrame() throws(AudioOutputError) -> Int64
    /// Makes the next `write` land at the frame the server reads next, over what is queued there (the
    /// rest is overwritten by the writes that follow); returns that frame. For a corked stream.
    func rewindWrites() throws(AudioOutputError) -> Int64
    /// Writes whole frames at stream frame `frame` (at or after `readFrame()`), replacing what was queued
    /// there; the next `write` lands after them.
    func write(_ bytes: UnsafeRawBufferPointer, at frame: Int64) throws(AudioOutputError)
    /// Drops what is queued but not heard; returns the frame index the next write lands on.
    func flush() throws(AudioOutputError) -> Int64
    /// Plays out what is queued; `.drained` arrives in `takeEvents()` when it is heard.
    func drain() throws(AudioOutputError)
    /// Forgets a running drain: the stream takes more data again.
    func cancelDrain()
    /// Sets the stream volume, 0–100.
    func setVolume(_ volume: Int) throws(AudioOutputError)
    /// Frames of the current stream heard so far (the sound card's clock, not bytes written); nil while unknown.
    func playedFrames() -> Int64?
    /// Plays the wheel click at `volume` (0–100) over whatever plays; no-op when not connected.
    func playClick(volume: Int)
    /// Events since the last call, oldest first.
    func takeEvents() -> [AudioOutputEvent]
    /// True when the output calls `wake` by itself whenever the stream wants more data (the server asks), so
    /// the audio thread need not poll while playing; false for a clock the thread must look at (null output).
    var wakesWhenWritable: Bool { get }
    /// Why an output that connected cannot be heard now, when its server is reached in the background
    /// (snapcast: snapserver is down); nil while it can, or before it knows. Such an output never throws from
    /// `connect`, so this is how "No audio output" learns of it.
    var unreachable: String? { get }
}

extension AudioOutput {
    public var wakesWhenWritable: Bool { false }
    public var unreachable: String? { nil }
}

/// Something the output noticed on its own.
public enum AudioOutputEvent: Sendable, Equatable {
    /// The server went away (restart, crash): reconnect.
    case serverLost
    /// The sink we played on disappeared (headphones, Bluetooth): pause.
    case sinkLost
    /// The stream died while the server stayed: open another one.
    case streamFailed
    /// A drain finished: everything written was heard.
    case drained
    /// The stream's buffer ran empty while it played: the server played silence until more came (a
    /// dropout: the audio thread was held up for longer than the buffer lasts).
    case underflow
}

/// Why an output could not do what was asked.
public struct AudioOutputError: Error, CustomStringConvertible, Sendable {
    public var message: String
    /// True when the server is gone (reconnect later); false for a problem with this request only.
    public var serverGone: Bool

    public init(_ message: String, serverGone: Bool) {
        self.message = message
        self.serverGone = serverGone
    }

    public var description: String { message }
}

/// Interleaved signed 16-bit PCM at a rate and channel count.
public struct PCMFormat: Hashable, Sendable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Bytes per frame.
    public var frameSize: Int { 2 * channels }

    public var description: String { "s16le \(channels)ch \(sampleRate) Hz" }
}

/// An output that paces itself (Snapcast) and, as a second output beside another, follows the first
/// one's clock instead of the wall clock.
public protocol ClockFollowingOutput: AudioOutput {
    /// Opens a stream paced by the first output's clock from its first pass (`follow`).
    func openFollowingStream(format: PCMFormat, volume: Int, paused: Bool)
    /// Where the first output plays now, in this output's stream frames (read fresh each pass).
    func follow(frame: Int64)
}
