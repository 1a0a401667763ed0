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
        switch frame.format {
        case .s16, .s16Planar: append(frame, Int16.self, skip: skip, count: count) { S16.from(Int32($0), bits: 16, gain: gain) }
        case .s32, .s32Planar: append(frame, Int32.self, skip: skip, count: count) { S16.from($0, bits: 32, gain: gain) }
        case .float, .floatPlanar: append(frame, Float.self, skip: skip, count: count) { S16.from($0, gain: gain) }
        case .double, .doublePlanar: append(frame, Double.self, skip: skip, count: count) { S16.from(Float($0), gain: gain) }
        case .u8, .u8Planar: append(frame, UInt8.self, skip: skip, count: count) { S16.from(Int32($0) - 128, bits: 8, gain: gain) }
        case .other: skippedDamage += 1
        }
    }

    /// The frame's samples as `T`, planar or interleaved, converted by `convert` into the queue.
    @inline(__always)
    private func append<T>(
        _ frame: FFmpegFrame, _ type: T.Type, skip: Int, count: Int, _ convert: (T) -> Int16
    ) {
        let ch = frame.channels
        if frame.format.isPlanar {
            let planes = (0..<ch).map { UnsafePointer(frame.plane($0).assumingMemoryBound(to: T.self)) }
            queue.append(frames: count, planes: planes, offset: skip, convert)
        } else {
            let p = frame.plane(0).assumingMemoryBound(to: T.self) + skip * ch
            queue.append(frames: count, interleaved: p, convert)
        }
    }
}
