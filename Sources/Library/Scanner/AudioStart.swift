/// Finds the first real MPEG audio frame: a valid header followed by two more that chain to it.
///
/// Three chained headers rule out the false syncs of random data and of images; the distance from the
/// end of the ID3v2 tag is the junk a file carries before its audio.
struct AudioStart {
    var offset: Int
    var header: MPEGFrameHeader
    var vbrHeader: VBRHeader?

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
                        return AudioStart(offset: base + i, header: h, vbrHeader: VBRHeader(raw, frameAt: i, header: h))
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
