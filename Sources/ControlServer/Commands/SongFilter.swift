import Foundation
import Library
import MPDProtocol

/// Evaluates a parsed `MPDFilter` against songs (the codec parses; the library side evaluates).
///
/// A filter is prepared once for the many songs it is matched against (`init`): each comparison's
/// text is decoded, folded and, for `=~`, compiled there, not once per song and value. Prepared over a
/// `SongTable`, a comparison with one tag is made once per distinct value of the tag (`TagColumn`), and
/// each song only looks its value numbers up.
struct SongFilter {
    private indirect enum Node {
        case and([Node])
        case not(Node)
        /// A tag (nil: any tag) compared with `Match`.
        case tag(MPDTag?, Match)
        /// A tag compared through its column: `hits` says, per value number, whether that value
        /// satisfies the comparison (not negated).
        case column(TagColumn, hits: [Bool], Match)
        case uri(Match)
        /// `base`: the folder, without slashes at either end ("" for everything).
        case base(String)
        case modifiedSince(Int64)
        case audioFormat([String], mask: Bool)
    }

    /// One string comparison, ready: the needle as text (nil when it is not valid UTF-8: then it
    /// matches nothing), lowercased when the command ignores case, the regex compiled (nil: invalid).
    private struct Match {
        let needle: String?
        let op: MPDStringMatch.Operator
        let negated: Bool
        let foldCase: Bool
        let regex: NSRegularExpression?

        init(_ m: MPDStringMatch) {
            let text = m.string
            needle = m.foldCase ? text?.lowercased() : text
            op = m.op
            negated = m.negated
            foldCase = m.foldCase
            regex = m.op == .regex
                ? text.flatMap { try? NSRegularExpression(pattern: $0, options: m.foldCase ? [.caseInsensitive] : []) } : nil
        }

        /// True when any value satisfies the comparison (negated comparisons: when none does).
        func matches(_ values: [String]) -> Bool {
            guard needle != nil else { return negated }
            let hit = values.contains(where: test)
            return negated ? !hit : hit
        }

        /// `matches` for every value of every tag the song has (`any`), without gathering them first.
        func matchesAny(_ s: SongRecord) -> Bool {
            guard needle != nil else { return negated }
            let hit = SongFilter.anyValue(s, test)
            return negated ? !hit : hit
        }

        /// Whether each of `column`'s values satisfies the comparison (not negated), by value number.
        func hits(in column: TagColumn) -> [Bool] {
            guard let needle else { return [] }
            guard op == .equals, !foldCase else { return column.values.map(test) }
            // The values are sorted: one lookup instead of a comparison per value.
            var hits = [Bool](repeating: false, count: column.values.count)
            if let n = column.number(of: needle) { hits[Int(n)] = true }
            return hits
        }

        /// Whether one value satisfies the comparison (not negated).
        private func test(_ value: String) -> Bool {
            guard let needle else { return false }
            switch op {
            case .regex:
                guard let regex else { return false }
                return regex.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
            case .equals: return (foldCase ? value.lowercased() : value) == needle
            case .startsWith: return (foldCase ? value.lowercased() : value).hasPrefix(needle)
            case .contains: return Self.contains(value, needle, foldCase: foldCase)
            }
        }

        /// Whether `value` (lowercased first when `foldCase`) holds `needle`'s bytes, as MPD compares:
        /// byte for byte, an ASCII value lowercased in place without a new string.
        private static func contains(_ value: String, _ needle: String, foldCase: Bool) -> Bool {
            var value = value, needle = needle
            return needle.withUTF8 { n in
                value.withUTF8 { v in
                    guard foldCase else { return find(n, in: v) }
                    guard v.allSatisfy({ $0 < 0x80 }) else {
                        var folded = String(decoding: v, as: UTF8.self).lowercased()
                        return folded.withUTF8 { find(n, in: $0) }
                    }
                    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(v.count, 1)) { lower in
                        for (i, b) in v.enumerated() { lower[i] = b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
                        return find(n, in: UnsafeBufferPointer(rebasing: lower[..<v.count]))
                    }
                }
            }
        }

        private static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
            if needle.isEmpty { return true }
            guard needle.count <= haystack.count, let h = haystack.baseAddress, let n = needle.baseAddress else { return false }
            // The first byte with memchr, the rest with memcmp (Glibc's memmem is not imported).
            let last = haystack.count - needle.count
            var at = 0
            while at <= last {
                guard let hit = memchr(h + at, Int32(n.pointee), last - at + 1) else { return false }
                at = UnsafeRawPointer(hit) - UnsafeRawPointer(h)
                if memcmp(h + at, n, needle.count) == 0 { return true }
                at += 1
            }
            return false
        }
    }

    /// Whether `test` holds for a value of any tag the song has (the tags `SongWriter.tagValues` lists).
    static func anyValue(_ s: SongRecord, _ test: (String) -> Bool) -> Bool {
        if s.artists.contains(where: test) || s.albumArtists.contains(where: test) || test(s.title) || test(s.album) {
            return true
        }
        if let t = s.trackNumber, test(String(t)) { return true }
        if let d = s.date, test(d) { return true }
        if s.genres.contains(where: test) || s.composers.contains(where: test) { return true }
        if let d = s.discNumber, test(String(d)) { return true }
        for v in [s.sortArtist, s.sortAlbum, s.sortAlbumArtist, s.comment, s.musicBrainzTrackID] {
            if let v, test(v) { return true }
        }
        return false
    }

    private let root: Node

    /// `table`: the songs the filter will be matched against by index (`matches(_:at:)`), whose tag
    /// columns it uses; without one it matches any song (`matches(_:)`).
    init(_ filter: MPDFilter, table: SongTable? = nil) {
        root = Self.prepare(filter, table)
    }

    private static func columnMatch(_ column: TagColumn, _ match: Match) -> Node {
        .column(column, hits: match.hits(in: column), match)
    }

    private static func prepare(_ filter: MPDFilter, _ table: SongTable?) -> Node {
        switch filter {
        case .and(let all): .and(all.map { prepare($0, table) })
        case .not(let f): .not(prepare(f, table))
        case .tag(let tag, let m):
            if let tag, let table { columnMatch(table.column(tag), Match(m)) } else { .tag(tag, Match(m)) }
        case .uri(let m): .uri(Match(m))
        case .base(let bytes):
            .base(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "/")))
        case .modifiedSince(let t): .modifiedSince(t)
        case .audioFormat(let format, let mask): .audioFormat(format.split(separator: ":").map(String.init), mask: mask)
        }
    }

    /// Whether `s` matches; for a filter prepared without a table.
    func matches(_ s: SongRecord) -> Bool { Self.matches(root, s) }

    /// Per song of `table` (the one the filter was prepared over), whether it matches. Worked out node by
    /// node over all the songs, each node in one tight loop, rather than song by song down the tree.
    func matches(in table: SongTable) -> [Bool] { Self.matches(root, in: table) }

    private static func matches(_ node: Node, in table: SongTable) -> [Bool] {
        switch node {
        case .and(let all):
            var out = [Bool](repeating: true, count: table.songs.count)
            for n in all {
                let one = matches(n, in: table)
                for i in out.indices { out[i] = out[i] && one[i] }
            }
            return out
        case .not(let n):
            return matches(n, in: table).map { !$0 }
        case .column(let column, let hits, let m):
            guard m.needle != nil else { return [Bool](repeating: m.negated, count: table.songs.count) }
            let having = column.songsHaving(hits)
            return m.negated ? having.map { !$0 } : having
        default:
            return table.songs.withUnsafeBufferPointer { songs in songs.map { matches(node, $0) } }
        }
    }

    /// For a filter used once.
    static func matches(_ filter: MPDFilter, _ s: SongRecord) -> Bool { SongFilter(filter).matches(s) }

    private static func matches(_ node: Node, _ s: SongRecord) -> Bool {
        switch node {
        case .and(let all): return all.allSatisfy { matches($0, s) }
        case .not(let n): return !matches(n, s)
        case .column:
            preconditionFailure("a filter prepared over a table is matched with matches(in:)")
        case .tag(let tag?, let m):
            let values = SongWriter.values(s, tag)
            return m.matches(values.isEmpty ? [""] : values)
        case .tag(nil, let m):
            return m.matchesAny(s)
        case .uri(let m): return m.matches([s.path])
        case .base(let base): return base.isEmpty || s.path.hasPrefix(base + "/")
        case .modifiedSince(let t): return s.modified >= t
        case .audioFormat(let want, let mask):
            let mine = ["\(s.sampleRate)", s.sampleFormat, "\(s.channels)"]
            guard want.count == 3 else { return false }
            return zip(mine, want).allSatisfy { $0 == $1 || (mask && $1 == "*") }
        }
    }
}
