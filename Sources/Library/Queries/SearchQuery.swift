import ClickWheelCore
import GRDB

/// Music → Search: artists, then albums, then songs whose name contains the text, compared folded
/// (`SortKey.fold`: case and accents ignored), through the SQL function `cw_fold` that every
/// connection registers.
///
/// Search scans names: an index cannot serve "contains". That is the one list whose page costs a pass
/// over the names rather than index probes; a person typing on a wheel does not notice it (the figure:
/// contrib/bench/README.md, menu queries).
struct SearchQuery {
    struct Segment {
        var kind: BrowseRow.Kind
        var columns: String
        var from: String
        var order: String
    }

    static let segments = [
        Segment(kind: .artist, columns: "id, name AS title, NULL AS detail, sort_key",
                from: "FROM artists WHERE ord IS NOT NULL AND instr(cw_fold(name), ?) > 0", order: "ord"),
        Segment(kind: .album, columns: "al.id, al.title, ar.name AS detail, al.sort_key",
                from: "FROM albums al JOIN artists ar ON ar.id = al.artist_id WHERE al.ord IS NOT NULL AND instr(cw_fold(al.title), ?) > 0",
                order: "al.ord"),
        Segment(kind: .song, columns: "t.id, t.title, t.artist AS detail, t.title_key AS sort_key",
                from: "FROM tracks t WHERE t.ord IS NOT NULL AND instr(cw_fold(t.title), ?) > 0", order: "t.ord"),
    ]

    let needle: String

    init(_ text: String) { needle = SortKey.fold(text) }

    func counts(_ db: Database) throws -> [Int] {
        guard !needle.isEmpty else { return [0, 0, 0] }
        return try Self.segments.map {
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) \($0.from)"), arguments: [needle]) ?? 0
        }
    }

    func rows(_ db: Database, in range: Range<Int>) throws -> [BrowseRow] {
        let counts = try counts(db)
        var out: [BrowseRow] = []
        var base = 0
        for (segment, count) in zip(Self.segments, counts) {
            let lo = max(range.lowerBound, base), hi = min(range.upperBound, base + count)
            if lo < hi {
                let sql = "SELECT \(segment.columns) \(segment.from) ORDER BY \(segment.order) LIMIT ? OFFSET ?"
                out += try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [needle, hi - lo, lo - base]).map {
                    BrowseRow(id: $0["id"], kind: segment.kind, title: $0["title"], detail: $0["detail"],
                              initial: SortKey.initial(ofKey: $0["sort_key"] ?? ""))
                }
            }
            base += count
        }
        return out
    }

    /// The songs among the results, in order (what selecting a song in the results queues).
    func trackIDs(_ db: Database) throws -> [Int64] {
        guard !needle.isEmpty else { return [] }
        let s = Self.segments[2]
        return try Int64.fetchAll(db.cachedStatement(sql: "SELECT t.id \(s.from) ORDER BY \(s.order)"), arguments: [needle])
    }
}
