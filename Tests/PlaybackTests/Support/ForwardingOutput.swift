import Playback

/// An output that hands every call to `inner`, the real or the null output: tests subclass it to put a
/// fault in front of one (a stream that fails to open, a write that holds up the audio thread).
class ForwardingOutput: AudioOutput {
    let inner: any AudioOutput

    init(_ inner: any AudioOutput) { self.inner = inner }

    func connect(wake: @escaping @Sendable () -> Void) throws(AudioOutputError) -> String { try inner.connect(wake: wake) }
    func disconnect() { inner.disconnect() }
    func openStream(format: PCMFormat, volume: Int, paused: Bool) throws(AudioOutputError) {
        try inner.openStream(format: format, volume: volume, paused: paused)
    }
    func closeStream() { inner.closeStream() }
    var hasStream: Bool { inner.hasStream }
    func writableBytes() -> Int { inner.writableBytes() }
    func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) { try inner.write(bytes) }
    func setPaused(_ paused: Bool) throws(AudioOutputError) { try inner.setPaused(paused) }
    func readFrame() throws(AudioOutputError) -> Int64 { try inner.readFrame() }
    func rewindWrites() throws(AudioOutputError) -> Int64 { try inner.rewindWrites() }
    func write(_ bytes: UnsafeRawBufferPointer, at frame: Int64) throws(AudioOutputError) { try inner.write(bytes, at: frame) }
    func flush() throws(AudioOutputError) -> Int64 { try inner.flush() }
    func drain() throws(AudioOutputError) { try inner.drain() }
    func cancelDrain() { inner.cancelDrain() }
    func setVolume(_ volume: Int) throws(AudioOutputError) { try inner.setVolume(volume) }
    func playedFrames() -> Int64? { inner.playedFrames() }
    func playClick(volume: Int) { inner.playClick(volume: volume) }
    func takeEvents() -> [AudioOutputEvent] { inner.takeEvents() }
    var wakesWhenWritable: Bool { inner.wakesWhenWritable }
}
