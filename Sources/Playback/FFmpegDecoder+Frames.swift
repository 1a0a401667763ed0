import FFmpeg

/// Putting a decoded frame on the track's timeline and into the queue: samples before `next` (a seek's
/// target, or the encoder delay FFmpeg left) and after `length` (padding) are dropped; the rest is
/// converted to 16 bits with Sound Check's gain.
///
/// Thread rules: audio thread only.
extension FFmpegDecoder {
    func take(_ frame: FFmpegFrame) {
        let n = Int64(frame.samples)
        guard n > 0 else { return }
        guard frame.channels == sourceChannels else {
            skippedDamage += 1
            return
        }
        let start = frame.pts.map { timing.sample(forTimestamp: $0) } ?? next
        let from = max(start, next)
        var end = start + n
        if let length { end = min(end, length) }
        if end > from {
            append(frame, skip: Int(from - start), count: Int(end - from))
            next = end
        }
        if let length, max(next, start) >= length { ended = true }
    }

    /// Frames `skip..<skip+count` of `frame` into the queue, by its sample format.
    private func append(_ frame: FFmpegFrame, skip: Int, count: Int) {
        let gain = self.gain
        let ch = frame.channels
        let format = frame.format
        let planar = format.isPlanar
        func pointer<T>(_ type: T.Type) -> (Int, Int) -> T {
            if planar {
                let planes = (0..<ch).map { frame.plane($0).assumingMemoryBound(to: T.self) }
                return { f, c in planes[c][skip + f] }
            }
            let p = frame.plane(0).assumingMemoryBound(to: T.self)
            return { f, c in p[(skip + f) * ch + c] }
        }
        switch format {
        case .s16, .s16Planar:
            let s = pointer(Int16.self)
            queue.append(frames: count) { f, c in S16.from(Int32(s(f, c)), bits: 16, gain: gain) }
        case .s32, .s32Planar:
            let s = pointer(Int32.self)
            queue.append(frames: count) { f, c in S16.from(s(f, c), bits: 32, gain: gain) }
        case .float, .floatPlanar:
            let s = pointer(Float.self)
            queue.append(frames: count) { f, c in S16.from(s(f, c), gain: gain) }
        case .double, .doublePlanar:
            let s = pointer(Double.self)
            queue.append(frames: count) { f, c in S16.from(Float(s(f, c)), gain: gain) }
        case .u8, .u8Planar:
            let s = pointer(UInt8.self)
            queue.append(frames: count) { f, c in S16.from(Int32(s(f, c)) - 128, bits: 8, gain: gain) }
        case .other:
            skippedDamage += 1
        }
    }
}
