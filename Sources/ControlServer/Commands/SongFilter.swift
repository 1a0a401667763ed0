import Foundation
import Library
import MPDProtocol

/// Evaluates a parsed `MPDFilter` against a song (the codec parses; the library side evaluates).
enum SongFilter {
    static func matches(_ filter: MPDFilter, _ s: SongRecord) -> Bool {
        switch filter {
        case .and(let all): return all.allSatisfy { matches($0, s) }
        case .not(let f): return !matches(f, s)
        case .tag(let tag, let m):
            let values = tag.map { SongWriter.values(s, $0) } ?? SongWriter.tagValues(s).flatMap(\.1)
            return string(m, values.isEmpty ? [""] : values)
        case .uri(let m): return string(m, [s.path])
        case .base(let bytes):
            let base = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            return base.isEmpty || s.path.hasPrefix(base + "/")
        case .modifiedSince(let t): return s.modified >= t
        case .audioFormat(let format, let mask):
            let mine = ["\(s.sampleRate)", "16", "\(s.channels)"]
            let want = format.split(separator: ":").map(String.init)
            guard want.count == 3 else { return false }
            return zip(mine, want).allSatisfy { $0 == $1 || (mask && $1 == "*") }
        }
    }

    /// True when any value satisfies the comparison (negated comparisons: when none does).
    static func string(_ m: MPDStringMatch, _ values: [String]) -> Bool {
        guard let needle = m.string else { return m.negated }
        let hit = values.contains { value in
            let (a, b) = m.foldCase ? (value.lowercased(), needle.lowercased()) : (value, needle)
            switch m.op {
            case .equals: return a == b
            case .contains: return a.contains(b)
            case .startsWith: return a.hasPrefix(b)
            case .regex:
                let options: NSRegularExpression.Options = m.foldCase ? [.caseInsensitive] : []
                guard let re = try? NSRegularExpression(pattern: needle, options: options) else { return false }
                return re.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
            }
        }
        return m.negated ? !hit : hit
    }
}
