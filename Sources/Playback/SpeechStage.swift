import Sonic

/// The spoken-word speed stage between the decoder and the output: libsonic changes the speed of a
/// podcast or an audiobook and keeps its pitch.
///
/// It exists only while spoken word plays at a speed other than 1 (music and 1× bypass it: no CPU cost,
/// the decoder's samples bit for bit). It keeps the books for the timeline: each frame fed comes out
/// about 1/speed frames later, so `nextInputFrame` says at which stream frame the next frame fed will be
/// heard (where the next track of a gapless hand-over starts), whatever the stage still holds.
/// Thread rules: audio thread only.
final class SpeechStage {
    private let sonic: SonicStream
    let format: PCMFormat
    /// Stream frame at which the stage's first output frame lands.
    let base: Int64
    /// Output frames the input fed so far makes, at the speeds it was fed at.
    private var expectedOutput: Double = 0

    /// A stage at `speed` whose output starts at stream frame `base`.
    init(format: PCMFormat, speed: Double, base: Int64) throws(SonicError) {
        sonic = try SonicStream(sampleRate: format.sampleRate, channels: format.channels, speed: speed)
        self.format = format
        self.base = base
    }

    /// Track samples per output frame. A change applies smoothly to what the stage holds (no restart).
    var speed: Double {
        get { sonic.speed }
        set { sonic.speed = newValue }
    }

    /// The stream frame at which the next frame fed comes out.
    var nextInputFrame: Int64 { base + Int64(expectedOutput.rounded()) }

    /// Feeds whole interleaved frames.
    func feed(_ bytes: UnsafeRawBufferPointer) throws(SonicError) {
        let samples = bytes.bindMemory(to: Int16.self)
        try sonic.write(samples)
        expectedOutput += Double(samples.count / format.channels) / sonic.speed
    }

    /// Takes up to `buffer.count` bytes of output (whole frames); returns the bytes taken.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let samples = buffer.bindMemory(to: Int16.self)
        return sonic.read(into: samples) * format.frameSize
    }

    /// Makes the rest come out (the end of what was fed, scaled: the last track before music or the end).
    func flush() throws(SonicError) { try sonic.flush() }
}
