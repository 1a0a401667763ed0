/// Mixes more than two channels down to stereo: the pipeline's `PCMFormat` has no channel map, so
/// PulseAudio would place a 5.1 FLAC's channels by its own default order and a snapcast output would keep
/// only the first two; an iPod's headphone socket is stereo anyway.
///
/// Each channel's role comes from the codec's order (`ChannelOrder`); fronts go to their side, centres to
/// both at −3 dB, surrounds to their side at −3 dB, LFE is dropped. The matrix is normalized so that
/// full-scale input cannot clip. Layouts with more than eight channels keep the first two.
///
/// Thread rules: a value; used by one decoder on the audio thread.
struct Downmix {
    /// (left, right) weight of each input channel.
    let weights: [(Float, Float)]

    /// Where each channel sits, by the codec's convention.
    enum ChannelOrder {
        /// WAV, FLAC, ALAC and FFmpeg's native order: FL FR FC LFE BL BR (SL SR).
        case wave
        /// Vorbis and Opus (mapping family 1): FL FC FR RL RR LFE, …
        case vorbis
    }

    private enum Role { case left, right, center, lfe, leftSurround, rightSurround, backCenter }

    /// Nil for one or two channels (nothing to mix).
    init?(channels: Int, order: ChannelOrder) {
        guard channels > 2 else { return nil }
        let roles: [Role]
        switch (order, channels) {
        case (.wave, 3): roles = [.left, .right, .center]
        case (.wave, 4): roles = [.left, .right, .leftSurround, .rightSurround]
        case (.wave, 5): roles = [.left, .right, .center, .leftSurround, .rightSurround]
        case (.wave, 6): roles = [.left, .right, .center, .lfe, .leftSurround, .rightSurround]
        case (.wave, 7): roles = [.left, .right, .center, .lfe, .backCenter, .leftSurround, .rightSurround]
        case (.wave, 8):
            roles = [.left, .right, .center, .lfe, .leftSurround, .rightSurround, .leftSurround, .rightSurround]
        case (.vorbis, 3): roles = [.left, .center, .right]
        case (.vorbis, 4): roles = [.left, .right, .leftSurround, .rightSurround]
        case (.vorbis, 5): roles = [.left, .center, .right, .leftSurround, .rightSurround]
        case (.vorbis, 6): roles = [.left, .center, .right, .leftSurround, .rightSurround, .lfe]
        case (.vorbis, 7): roles = [.left, .center, .right, .leftSurround, .rightSurround, .backCenter, .lfe]
        case (.vorbis, 8):
            roles = [.left, .center, .right, .leftSurround, .rightSurround, .leftSurround, .rightSurround, .lfe]
        default: roles = [.left, .right] + Array(repeating: .lfe, count: channels - 2)
        }
        let half: Float = 0.7071
        var w: [(Float, Float)] = roles.map {
            switch $0 {
            case .left: (1, 0)
            case .right: (0, 1)
            case .center, .backCenter: (half, half)
            case .lfe: (0, 0)
            case .leftSurround: (half, 0)
            case .rightSurround: (0, half)
            }
        }
        let peak = max(w.reduce(0) { $0 + $1.0 }, w.reduce(0) { $0 + $1.1 }, 1)
        w = w.map { ($0.0 / peak, $0.1 / peak) }
        weights = w
    }

    /// The stereo frame for one input frame, `sample(c)` giving channel `c`.
    @inline(__always)
    func mix(_ sample: (Int) -> Int16) -> (Int16, Int16) {
        var l: Float = 0
        var r: Float = 0
        for (c, w) in weights.enumerated() {
            let s = Float(sample(c))
            l += s * w.0
            r += s * w.1
        }
        return (Int16(clamping: Int(l.rounded())), Int16(clamping: Int(r.rounded())))
    }
}
