import Foundation
import Library
import MPDProtocol

/// Evaluates a parsed `MPDFilter` against songs (the codec parses; the library side evaluates).
///
/// A filter is prepared once for the many songs it is matched against (`init`): each comparison's
/// text is decoded, folded and, for `=~`, compiled there, not once per song and value.
struct SongFilter {
    private indirect enum Node {
        case and([Node])
        case not(Node)
        /// A tag (nil: any tag) compared with `Match`.
        case tag(MPDTag?, Match)
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
            guard let needle else { return negated }
            let hit = values.contains { value in
                if op == .regex {
                    guard let regex else { return false }
                    return regex.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
                }
                let a = foldCase ? value.lowercased() : value
                switch op {
                case .equals: return a == needle
                case .contains: return a.contains(needle)
                case .startsWith: return a.hasPrefix(needle)
                case .regex: return false
                }
            }
            return negated ? !hit : hit
        }
    }

    private let root: Node

    init(_ filter: MPDFilter) {
        root = Self.prepare(filter)
    }

    private static func prepare(_ filter: MPDFilter) -> Node {
        switch filter {
        case .and(let all): .and(all.map(prepare))
        case .not(let f): .not(prepare(f))
        case .tag(let tag, let m): .tag(tag, Match(m))
        case .uri(let m): .uri(Match(m))
        case .base(let bytes):
            .base(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "/")))
        case .modifiedSince(let t): .modifiedSince(t)
        case .audioFormat(let format, let mask): .audioFormat(format.split(separator: ":").map(String.init), mask: mask)
        }
    }

    func matches(_ s: SongRecord) -> Bool { Self.matches(root, s) }

    /// For a filter used once.
    static func matches(_ filter: MPDFilter, _ s: SongRecord) -> Bool { SongFilter(filter).matches(s) }

    private static func matches(_ node: Node, _ s: SongRecord) -> Bool {
        switch node {
        case .and(let all): return all.allSatisfy { matches($0, s) }
        case .not(let n): return !matches(n, s)
        case .tag(let tag, let m):
            let values = tag.map { SongWriter.values(s, $0) } ?? SongWriter.tagValues(s).flatMap(\.1)
            return m.matches(values.isEmpty ? [""] : values)
        case .uri(let m): return m.matches([s.path])
        case .base(let base): return base.isEmpty || s.path.hasPrefix(base + "/")
        case .modifiedSince(let t): return s.modified >= t
        case .audioFormat(let want, let mask):
            let mine = ["\(s.sampleRate)", "16", "\(s.channels)"]
            guard want.count == 3 else { return false }
            return zip(mine, want).allSatisfy { $0 == $1 || (mask && $1 == "*") }
        }
    }
}
