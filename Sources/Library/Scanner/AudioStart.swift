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
        // The rest of the tag's last page first (the three frames needed often end there), then one page more.
        for pages in 0..<2 {
            switch try findNearby(in: file, from: start, pages: pages) {
            case .found(let nearby): return nearby
            case .undecided: continue
            case .elsewhere: return try findInWindows(in: file, from: start, limit: limit)
            }
        }
        return try findInWindows(in: file, from: start, limit: limit)
    }

    enum Nearby {
        case found(AudioStart)
        /// The window ended before the answer: a longer one may give it.
        case undecided
        /// No header frame here: `findInWindows` decides.
        case elsewhere
    }

    /// The common case in one or two pages: a frame with a Xing/Info/VBRI header soon after the tag.
    ///
    /// Reads from `start` to the page boundary after it, `pages` pages more. Gives exactly what
    /// `findInWindows` gives, or leaves the decision to a longer read: every position is
    /// tested as there, and a result is only taken when everything it depends on lies inside this
    /// smaller read (or the file ends within it): the two chained headers and the header frame's first
    /// 64 bytes (`VBRHeader` reads fewer). A stream without a header frame goes to `findInWindows`,
    /// whose 64 KiB window `bitratesVary` looks at (such a file is read whole anyway).
    static func findNearby(in file: FileReader, from start: Int, pages: Int) throws(ScanError) -> Nearby {
        let page = 4096
        let end = (start + 1 + page - 1) / page * page + pages * page
        guard start < file.size else { return .elsewhere }
        let buf = try file.read(at: start, count: end - start)
        let toEOF = start + buf.count == file.size
        if buf.count < 4 { return toEOF ? .elsewhere : .undecided }
        return buf.withUnsafeBytes { raw -> Nearby in
            var i = 0
            while i <= raw.count - 4 {
                if raw[i] == 0xFF, let h = MPEGFrameHeader(raw, at: i) {
                    switch chainsWithin(raw, i, h, remaining: file.size - start - i, toEOF: toEOF) {
                    case .no: break
                    case .undecided: return .undecided
                    case .yes:
                        guard toEOF || i + 64 <= raw.count else { return .undecided }
                        guard let vbr = VBRHeader(raw, frameAt: i, header: h) else { return .elsewhere }
                        return .found(AudioStart(offset: start + i, header: h, vbrHeader: vbr))
                    }
                }
                i += 1
            }
            return toEOF ? .elsewhere : .undecided
        }
    }

    enum Chain { case yes, no, undecided }

    /// `chains`, but "past our window" is undecided unless the window reaches the end of the file.
    static func chainsWithin(
        _ raw: UnsafeRawBufferPointer, _ i: Int, _ h: MPEGFrameHeader, remaining: Int, toEOF: Bool
    ) -> Chain {
        var at = i
        var header = h
        for _ in 0..<2 {
            at += header.length
            if at - i >= remaining { return at - i - remaining < header.length && at > i + h.length ? .yes : .no }
            guard at + 4 <= raw.count else { return toEOF ? .yes : .undecided }
            guard let next = MPEGFrameHeader(raw, at: at), next.matches(h) else { return .no }
            header = next
        }
        return .yes
    }

    /// Searches 64 KiB windows (plus a 4 KiB overlap) from `start` up to `limit` bytes on.
    static func findInWindows(in file: FileReader, from start: Int, limit: Int) throws(ScanError) -> AudioStart? {
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
