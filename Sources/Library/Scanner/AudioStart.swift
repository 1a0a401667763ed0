/// Finds the first real MPEG audio frame: a valid header followed by two more that chain to it.
///
/// Three chained headers rule out the false syncs of random data and of images; the distance from the
/// end of the ID3v2 tag is the junk a file carries before its audio.
struct AudioStart {
    var offset: Int
    var header: MPEGFrameHeader
    var vbrHeader: VBRHeader?
    /// True when the frames within the first read window do not all share the first frame's bitrate.
    var bitratesVary = false

    static func find(in file: FileReader, from start: Int, limit: Int) throws(ScanError) -> AudioStart? {
        let chunk = 64 * 1024
        var base = start
        while base < min(file.size, start + limit) {
            let buf = try file.read(at: base, count: chunk + 4096)  // overlap: a frame spans the seam
            if buf.count < 4 { return nil }
            let found: AudioStart? = buf.withUnsafeBytes { raw in
                var i = 0
                let last = min(chunk, raw.count - 4)
                while i <= last {
                    if raw[i] == 0xFF, let h = MPEGFrameHeader(raw, at: i), chains(raw, i, h, remaining: file.size - base - i) {
                        let vbr = VBRHeader(raw, frameAt: i, header: h)
                        var start = AudioStart(offset: base + i, header: h, vbrHeader: vbr)
                        if vbr == nil { start.bitratesVary = varies(raw, from: i, h) }
                        return start
                    }
                    i += 1
                }
                return nil
            }
            if let found { return found }
            base += chunk
        }
        return nil
    }

    /// Walks the chained frames inside `raw` and tells whether their bitrates differ.
    static func varies(_ raw: UnsafeRawBufferPointer, from i: Int, _ first: MPEGFrameHeader) -> Bool {
        var at = i
        while let h = MPEGFrameHeader(raw, at: at), h.matches(first) {
            if h.bitrate != first.bitrate { return true }
            at += h.length
        }
        return false
    }

    /// True when two more headers follow at the frame lengths (or the file ends within them).
    static func chains(_ raw: UnsafeRawBufferPointer, _ i: Int, _ h: MPEGFrameHeader, remaining: Int) -> Bool {
        var at = i
        var header = h
        for _ in 0..<2 {
            at += header.length
            if at - i >= remaining { return at - i - remaining < header.length && at > i + h.length }
            guard at + 4 <= raw.count else { return true }  // past our window: accept two
            guard let next = MPEGFrameHeader(raw, at: at), next.matches(h) else { return false }
            header = next
        }
        return true
    }
}
