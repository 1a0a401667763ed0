import ClickWheelCore

/// ID3v2 chapters (the ID3v2 Chapter Frame Addendum: `CHAP` and `CTOC`), read from hostile bytes.
///
/// Every read is bounds-checked against the payload the walker handed over (at most `chapLimit` /
/// `tocLimit` bytes of each frame): a lying size or a missing terminator ends that frame's parse, it
/// never reads past it. `normalized` then makes a playable list of what was found.
enum ChapterFrames {
    /// A `CHAP` frame as written: its element id, times in milliseconds, and its `TIT2` subframe.
    struct Raw: Equatable {
        var id: String
        var startMS: Int
        var endMS: Int
        var title: String?
    }

    /// How much of a `CHAP` frame is read: the fixed fields and the first subframes (a title, not a picture).
    static let chapLimit = 4096
    /// How much of a `CTOC` frame is read: up to 255 child ids.
    static let tocLimit = 16384
    /// At most this many chapters are kept per file.
    static let maximumCount = 1000

    /// Parses a `CHAP` payload: id NUL, start and end time (ms), start and end offset, then subframes
    /// (ID3v2.3/2.4 headers of 10 bytes) among which `TIT2` is the title. Nil when the fixed part is cut.
    static func chapter(_ p: [UInt8], version: Int) -> Raw? {
        guard let nul = p.firstIndex(of: 0), p.count - nul - 1 >= 16 else { return nil }
        let t = nul + 1
        var raw = Raw(
            id: String(decoding: p[..<nul], as: UTF8.self), startMS: be32(p, t), endMS: be32(p, t + 4), title: nil)
        var at = t + 16
        while at + 10 <= p.count {
            guard ID3v2Layout.isFrameID(p[at..<(at + 4)]) else { break }
            var size = be32(p, at + 4)
            if version == 4, p[(at + 4)..<(at + 8)].allSatisfy({ $0 < 0x80 }) {
                size = ID3v2Layout.synchsafe(p[at + 4], p[at + 5], p[at + 6], p[at + 7])
            }
            let body = at + 10
            // A title cut by the read limit keeps what was read; a size past the frame ends the walk.
            let end = min(p.count, body + size)
            if p[at..<(at + 4)].elementsEqual("TIT2".utf8) {
                raw.title = TextDecoding.id3Text(Array(p[body..<end])).first?.trimmingSpaces
                break
            }
            guard size > 0, body + size <= p.count else { break }
            at = body + size
        }
        return raw
    }

    /// Parses a `CTOC` payload: id NUL, flags (0x02: top level), child count, child ids each NUL-ended.
    static func tableOfContents(_ p: [UInt8]) -> (topLevel: Bool, children: [String])? {
        guard let nul = p.firstIndex(of: 0), nul + 2 < p.count else { return nil }
        let flags = p[nul + 1]
        let count = Int(p[nul + 2])
        var children: [String] = []
        var at = nul + 3
        while children.count < count, at < p.count, let end = p[at...].firstIndex(of: 0) {
            children.append(String(decoding: p[at..<end], as: UTF8.self))
            at = end + 1
        }
        return (flags & 0x02 != 0, children)
    }

    /// The chapters to play by: those the table of contents lists (all when it lists none of them), in
    /// time order, starting inside the file, one per start time, each ending where the next begins (or
    /// at its own end when that comes first), titled "Chapter N" when untitled.
    static func normalized(_ raws: [Raw], toc: [String], durationMS: Int) -> [Chapter] {
        let listed = Set(toc)
        var chosen = raws.filter { listed.contains($0.id) }
        if chosen.isEmpty { chosen = raws }
        chosen = chosen.enumerated().sorted { ($0.element.startMS, $0.offset) < ($1.element.startMS, $1.offset) }
            .map(\.element)
            .filter { durationMS <= 0 || $0.startMS < durationMS }
        var starts: Set<Int> = []
        chosen = chosen.filter { starts.insert($0.startMS).inserted }
        chosen = Array(chosen.prefix(maximumCount))
        return chosen.enumerated().map { i, raw in
            let limit = i + 1 < chosen.count ? chosen[i + 1].startMS : max(durationMS, raw.startMS)
            let end = raw.endMS > raw.startMS && raw.endMS <= limit ? raw.endMS : limit
            let title = raw.title.flatMap { $0.isEmpty ? nil : $0 } ?? "Chapter \(i + 1)"
            return Chapter(startMS: raw.startMS, endMS: end, title: title)
        }
    }

    private static func be32(_ p: [UInt8], _ at: Int) -> Int {
        Int(p[at]) << 24 | Int(p[at + 1]) << 16 | Int(p[at + 2]) << 8 | Int(p[at + 3])
    }
}
