/// The ID3v2 tag at the start of a file, walked frame by frame for what libmpg123 does not keep.
///
/// libmpg123 gives text frames, TXXX and COMM; it drops APIC (unless asked to keep every picture in
/// memory), the ID3v2.2 TCP and PIC frames, PCST, WFED and RVA2's values. This walker reads only frame
/// headers and the few small payloads it needs: a 1 MB cover costs one 10-byte read, not 1 MB.
struct ID3v2Layout {
    struct Picture: Equatable {
        var type: UInt8
        var mime: String
        /// Where the image bytes sit in the file; nil when the frame is unsynchronised or compressed.
        var offset: Int?
        var size: Int
    }

    var version: Int
    /// First byte after the tag (and its footer).
    var end: Int
    /// True when the header claims more bytes than the file has.
    var overflows: Bool
    var pictures: [Picture] = []
    var hasPodcastFrame = false
    /// ID3v2.2 TCP value.
    var compilation: String?
    var feedURL: String?
    /// ID3v2.2 sort frames (TST, TSP, TSA, TS2: iTunes writes them; libmpg123 drops them), by v2.3 id.
    var sortFrames: [String: String] = [:]
    /// RVA2 master-channel gains by identification ("track", "album"), in dB.
    var rva2: [String: Double] = [:]
    /// RVA2 master-channel peaks (linear, 1.0 = full scale) by identification.
    var rva2Peak: [String: Double] = [:]
    /// CHAP frames as written (`ChapterFrames`), and the child ids of the top-level CTOC (else the first).
    var chapters: [ChapterFrames.Raw] = []
    var tableOfContents: [String] = []
    private var tocIsTopLevel = false

    /// Reads the tag at the start of `file`, or nil when the file does not start with one.
    init?(_ file: FileReader) throws(ScanError) {
        let p = file.prefix
        guard p.count >= 10, p[0] == 0x49, p[1] == 0x44, p[2] == 0x33, (2...4).contains(p[3]),
            p[6] < 0x80, p[7] < 0x80, p[8] < 0x80, p[9] < 0x80
        else { return nil }
        version = Int(p[3])
        let flags = p[5]
        let size = Self.synchsafe(p[6], p[7], p[8], p[9])
        end = 10 + size + (version == 4 && flags & 0x10 != 0 ? 10 : 0)
        overflows = end > file.size
        if overflows {
            end = 10  // the claim is false: look for audio right after the header
            return
        }
        let unsynchronised = flags & 0x80 != 0 && version < 4
        var bodyStart = 10
        var body: [UInt8]? = nil  // whole tag in memory only when it is unsynchronised
        if unsynchronised {
            body = Self.resynchronise(try file.read(at: 10, count: size))
            bodyStart = 0
        }
        if flags & 0x40 != 0, version >= 3 {  // extended header
            let h = try Self.bytes(file, body, bodyStart, 4)
            guard h.count == 4 else { return }
            bodyStart += version == 4 ? Self.synchsafe(h[0], h[1], h[2], h[3]) : Self.be32(h) + 4
        }
        let bodyEnd = body.map { $0.count } ?? (10 + size)
        try walk(file, body, from: bodyStart, to: bodyEnd)
    }

    /// The picture payloads libmpg123 never looks into, as file ranges: what the scanner lets it read
    /// as zeros. libmpg123 walks the frames by the same headers and skips APIC/PIC by their sizes
    /// (without `MPG123_PICTURE`); where its walk stops earlier than this one (a v2.4 size that is not
    /// synchsafe) it reads nothing after. Pictures with no file offset (unsynchronised, compressed)
    /// are read as they are.
    func skippableRanges(fileSize: Int) -> [Range<Int64>] {
        pictures.compactMap { p in
            guard let o = p.offset, p.size > 0, o + p.size <= min(end, fileSize) else { return nil }
            return Int64(o)..<Int64(o + p.size)
        }
    }

    private mutating func walk(_ file: FileReader, _ body: [UInt8]?, from start: Int, to end: Int) throws(ScanError) {
        let headerSize = version == 2 ? 6 : 10
        var at = start
        var plainSizes = false  // iTunes writes v2.4 frame sizes without synchsafe encoding
        while at + headerSize <= end {
            let h = try Self.bytes(file, body, at, headerSize)
            guard h.count == headerSize, Self.isFrameID(h.prefix(version == 2 ? 3 : 4)) else { return }
            let id = String(decoding: h.prefix(version == 2 ? 3 : 4), as: UTF8.self)
            var size: Int
            var formatFlags: UInt8 = 0
            if version == 2 {
                size = Int(h[3]) << 16 | Int(h[4]) << 8 | Int(h[5])
            } else {
                size = Self.be32(Array(h[4..<8]))
                if version == 4, !plainSizes {
                    if h[4] | h[5] | h[6] | h[7] >= 0x80 {
                        plainSizes = true
                    } else {
                        size = Self.synchsafe(h[4], h[5], h[6], h[7])
                    }
                }
                formatFlags = h[9]
            }
            let payloadAt = at + headerSize
            guard size > 0, payloadAt + size <= end else { return }
            try frame(id, file, body, at: payloadAt, size: size, flags: formatFlags)
            at = payloadAt + size
        }
    }

    private mutating func frame(
        _ id: String, _ file: FileReader, _ body: [UInt8]?, at: Int, size: Int, flags: UInt8
    ) throws(ScanError) {
        // Compressed or encrypted frames (v2.3: 0x80/0x40, v2.4: 0x08/0x04) are not readable here.
        let opaque = version == 3 ? flags & 0xC0 != 0 : version == 4 && flags & 0x0C != 0
        let frameUnsync = version == 4 && flags & 0x02 != 0
        let skip = version == 4 && flags & 0x01 != 0 ? 4 : 0  // data length indicator
        func payload(_ limit: Int) throws(ScanError) -> [UInt8] {
            let raw = try Self.bytes(file, body, at + skip, min(size - skip, limit))
            return frameUnsync ? Self.resynchronise(raw) : raw
        }
        switch id {
        case "APIC", "PIC":
            let head = opaque ? [] : try payload(1024)
            if var pic = Self.picture(head, v22: id == "PIC") {
                if body == nil, !frameUnsync, let o = pic.offset {
                    pic.offset = at + skip + o
                    pic.size = size - skip - o
                } else {
                    pic.offset = nil
                    pic.size = size
                }
                pictures.append(pic)
            } else {
                pictures.append(Picture(type: 0, mime: "", offset: nil, size: size))
            }
        case "TST", "TSP", "TSA", "TS2":
            if !opaque, let v = TextDecoding.id3Text(try payload(1024)).first, !v.isEmpty {
                sortFrames[["TST": "TSOT", "TSP": "TSOP", "TSA": "TSOA", "TS2": "TSO2"][id]!] = v
            }
        case "PCST":
            hasPodcastFrame = true
        case "CHAP" where !opaque && chapters.count < ChapterFrames.maximumCount:
            if let c = ChapterFrames.chapter(try payload(ChapterFrames.chapLimit), version: version) {
                chapters.append(c)
            }
        case "CTOC" where !opaque && !tocIsTopLevel:
            if let toc = ChapterFrames.tableOfContents(try payload(ChapterFrames.tocLimit)),
                toc.topLevel || tableOfContents.isEmpty
            {
                (tableOfContents, tocIsTopLevel) = (toc.children, toc.topLevel)
            }
        case "TCP" where !opaque:
            compilation = TextDecoding.id3Text(try payload(64)).first
        case "WFED" where !opaque:
            let p = try payload(4096)
            // mutagen writes WFED as a URL frame; iTunes as a text frame with an encoding byte.
            feedURL = p.first.map { $0 <= 3 } == true ? TextDecoding.id3Text(p).first : TextDecoding.latin1(p)
        case "RVA2" where !opaque:
            let p = try payload(256)
            guard let nul = p.firstIndex(of: 0) else { return }
            let ident = String(decoding: p[..<nul], as: UTF8.self).lowercased()
            var i = nul + 1
            while i + 4 <= p.count {
                let channel = p[i]
                let adj = Int16(bitPattern: UInt16(p[i + 1]) << 8 | UInt16(p[i + 2]))
                let peakBits = Int(p[i + 3])
                if channel == 1 {
                    let key = ident.isEmpty ? "track" : ident
                    rva2[key] = Double(adj) / 512
                    let peakBytes = (peakBits + 7) / 8
                    if peakBits > 0, peakBytes <= 8, i + 4 + peakBytes <= p.count {
                        let raw = p[(i + 4)..<(i + 4 + peakBytes)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                        rva2Peak[key] = Double(raw) / Double(UInt64(1) << UInt64(peakBits - 1))
                    }
                    return
                }
                i += 4 + (peakBits + 7) / 8
            }
        default:
            break
        }
    }

    /// Parses an APIC/PIC header; `offset` in the result is relative to the payload.
    static func picture(_ p: [UInt8], v22: Bool) -> Picture? {
        guard let enc = p.first else { return nil }
        var i = 1
        var mime: String
        if v22 {
            guard p.count >= 5 else { return nil }
            let fmt = String(decoding: p[1..<4], as: UTF8.self).uppercased()
            mime = fmt == "PNG" ? "image/png" : fmt == "JPG" ? "image/jpeg" : "image/" + fmt.lowercased()
            i = 4
        } else {
            guard let nul = p[1...].firstIndex(of: 0) else { return nil }
            mime = String(decoding: p[1..<nul], as: UTF8.self).lowercased()
            if !mime.contains("/") { mime = "image/" + (mime == "jpg" ? "jpeg" : mime) }
            i = nul + 1
        }
        guard i < p.count else { return nil }
        let type = p[i]
        i += 1
        // Skip the description, terminated by one NUL (Latin-1/UTF-8) or two aligned NULs (UTF-16).
        if enc == 1 || enc == 2 {
            while i + 1 < p.count, !(p[i] == 0 && p[i + 1] == 0) { i += 2 }
            i += 2
        } else {
            while i < p.count, p[i] != 0 { i += 1 }
            i += 1
        }
        guard i <= p.count else { return nil }
        return Picture(type: type, mime: mime, offset: i, size: 0)
    }

    static func bytes(_ file: FileReader, _ body: [UInt8]?, _ at: Int, _ count: Int) throws(ScanError) -> [UInt8] {
        if let body {
            guard at < body.count else { return [] }
            return Array(body[at..<min(body.count, at + count)])
        }
        return try file.read(at: at, count: count)
    }

    static func isFrameID<C: Collection<UInt8>>(_ id: C) -> Bool {
        id.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    static func synchsafe(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int {
        Int(a & 0x7F) << 21 | Int(b & 0x7F) << 14 | Int(c & 0x7F) << 7 | Int(d & 0x7F)
    }

    static func be32(_ b: [UInt8]) -> Int { Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]) }

    /// Undoes ID3 unsynchronisation: every 0xFF 0x00 becomes 0xFF.
    static func resynchronise(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var previous: UInt8 = 0
        for byte in b {
            if !(previous == 0xFF && byte == 0) { out.append(byte) }
            previous = byte
        }
        return out
    }
}
