/// Decoded s16 PCM waiting for the player's next `read`: decoders whose library hands out whole blocks
/// (a FLAC frame, an AAC frame) convert a block into it and give it out in the sizes the player asks.
///
/// Thread rules: a value owned by one decoder, on the audio thread.
struct PCMQueue {
    private var samples: [Int16] = []
    private var head = 0
    /// Channels of what is queued (the output's: two when a `Downmix` is used).
    let channels: Int
    private let downmix: Downmix?

    /// A queue for sources of `sourceChannels` in `order`; more than two are mixed down to stereo.
    init(sourceChannels: Int, order: Downmix.ChannelOrder) {
        downmix = Downmix(channels: sourceChannels, order: order)
        channels = downmix == nil ? sourceChannels : 2
    }

    var isEmpty: Bool { head == samples.count }
    /// Frames waiting.
    var frames: Int { (samples.count - head) / channels }

    mutating func removeAll() {
        samples.removeAll(keepingCapacity: true)
        head = 0
    }

    /// Appends `frames` frames, sample `(frame, channel)` of the source given by `sample` (already 16-bit).
    @inline(__always)
    mutating func append(frames: Int, _ sample: (_ frame: Int, _ channel: Int) -> Int16) {
        guard frames > 0 else { return }
        if head == samples.count {
            samples.removeAll(keepingCapacity: true)
            head = 0
        }
        let base = samples.count
        let n = frames * channels
        samples.append(contentsOf: repeatElement(0, count: n))
        samples.withUnsafeMutableBufferPointer { out in
            if let downmix {
                for f in 0..<frames {
                    let (l, r) = downmix.mix { sample(f, $0) }
                    out[base + 2 * f] = l
                    out[base + 2 * f + 1] = r
                }
            } else {
                let ch = channels
                for f in 0..<frames {
                    for c in 0..<ch { out[base + f * ch + c] = sample(f, c) }
                }
            }
        }
    }

    /// Appends `frames` frames of interleaved samples from `source`, each converted by `convert`: one plain
    /// loop over the samples when nothing is mixed down (most tracks), else through `Downmix`.
    @inline(__always)
    mutating func append<T>(frames: Int, interleaved source: UnsafePointer<T>, _ convert: (T) -> Int16) {
        guard downmix == nil else {
            let ch = downmix!.weights.count
            append(frames: frames) { f, c in convert(source[f * ch + c]) }
            return
        }
        let n = frames * channels
        appendSamples(n) { out in
            for i in 0..<n { out[i] = convert(source[i]) }
        }
    }

    /// Appends `frames` frames from one plane per channel (`planes[c]`, from sample `offset` on), each
    /// converted by `convert`: mono and stereo in a plain loop over the planes, more channels through
    /// `Downmix`.
    @inline(__always)
    mutating func append<T>(frames: Int, planes: [UnsafePointer<T>], offset: Int = 0, _ convert: (T) -> Int16) {
        if downmix == nil && channels == 2 && planes.count == 2 {
            let l = planes[0] + offset, r = planes[1] + offset
            appendSamples(frames * 2) { out in
                for f in 0..<frames {
                    out[2 * f] = convert(l[f])
                    out[2 * f + 1] = convert(r[f])
                }
            }
        } else if downmix == nil && channels == 1 && planes.count == 1 {
            let m = planes[0] + offset
            appendSamples(frames) { out in
                for f in 0..<frames { out[f] = convert(m[f]) }
            }
        } else {
            append(frames: frames) { f, c in convert(planes[c][offset + f]) }
        }
    }

    /// Makes room for `count` more samples at the end and lets `fill` write them (all of them).
    @inline(__always)
    private mutating func appendSamples(_ count: Int, _ fill: (UnsafeMutableBufferPointer<Int16>) -> Void) {
        guard count > 0 else { return }
        if head == samples.count {
            samples.removeAll(keepingCapacity: true)
            head = 0
        }
        let base = samples.count
        samples.append(contentsOf: repeatElement(0, count: count))
        samples.withUnsafeMutableBufferPointer { out in
            fill(UnsafeMutableBufferPointer(rebasing: out[base..<base + count]))
        }
    }

    /// Drops the first `frames` frames waiting (the part of a block before a seek target).
    mutating func drop(frames: Int) {
        head = min(samples.count, head + max(0, frames) * channels)
    }

    /// Keeps only the first `frames` frames waiting (the part of a block before the end of the track).
    mutating func keep(frames: Int) {
        let end = head + max(0, frames) * channels
        if end < samples.count { samples.removeSubrange(end...) }
    }

    /// Moves whole frames into `buffer`; returns the bytes written.
    mutating func take(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count / (2 * channels), frames) * channels
        guard count > 0 else { return 0 }
        samples.withUnsafeBufferPointer { src in
            buffer.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: src[head..<head + count])))
        }
        head += count
        return count * 2
    }
}
