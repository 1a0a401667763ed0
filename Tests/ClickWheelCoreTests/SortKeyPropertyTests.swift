import ClickWheelCore
import PropertyBased
import Testing

/// Sort keys as properties over generated names (issue 21): the order every list uses is one total order,
/// whether SQLite compares the keys (bytes, BINARY) or the in-memory twin does (Swift's `<` on String),
/// and the letter-jump headings the menus show are contiguous in it.
@Suite struct SortKeyPropertyTests {
    /// Pieces names are made of: articles, digits (with leading zeros), accents both precomposed and
    /// decomposed, other scripts, punctuation, spaces.
    static let pieces = [
        "The ", "A ", "An ", "the", "a", "Zappa", "abba", "Ärzte", "A\u{308}rzte", "é", "e\u{301}", "Zoë", "Björk",
        "Кино", "и\u{306}", "ǅ", "東京", "Ωmega", "ß", "Æon", "ﬁ", "0", "007", "2", "10", "99", " ", "  ", "!", "\"", "#", "-", ".", "'",
        "x", "Y", "ǅ", "İ", "\u{301}", "𝄞", "Track ", "vol.", "½",
    ]
    static let name = Gen<String?>.element(of: pieces).array(of: 0...6).map { $0.compactMap { $0 }.joined() }

    static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
    }

    @Test func bytesAndSwiftStringsOrderKeysAlike() async {
        await propertyCheck(count: 2000, input: Self.name, Self.name) { a, b in
            let ka = SortKey.make(a), kb = SortKey.make(b)
            #expect(Self.bytesPrecede(ka, kb) == (ka < kb), "\(a.debugDescription) vs \(b.debugDescription)")
            #expect((Array(ka.utf8) == Array(kb.utf8)) == (ka == kb), "\(a.debugDescription) vs \(b.debugDescription)")
        }
    }

    /// Found by this property: the heading of a name in another script was its first Character, so a letter
    /// followed by a combining mark (a name in NFD, e.g. "и\u{306}" or "ǆ\u{301}") headed a group of its
    /// own, interleaved with its base letter's: the letter jump showed the same letter twice.
    @Test func headingsAreContiguousInKeyOrder() async {
        await propertyCheck(count: 300, input: Self.name.array(of: 2...40)) { names in
            let keys = names.map { SortKey.make($0) }.sorted(by: Self.bytesPrecede)
            var finished = Set<Character>()
            var current: Character?
            for key in keys {
                let heading = SortKey.initial(ofKey: key)
                if heading != current {
                    if let current { finished.insert(current) }
                    #expect(!finished.contains(heading), "heading \(heading) comes back in \(keys)")
                    current = heading
                }
            }
        }
    }

    @Test func numbersCompareByValue() async {
        await propertyCheck(count: 1000, input: Gen.int(in: 0...1_000_000), Gen.int(in: 0...1_000_000)) { n, m in
            let kn = SortKey.make("Track \(n)"), km = SortKey.make("Track 00\(m)")
            #expect(Self.bytesPrecede(kn, km) == (n < m), "\(n) vs \(m)")
            #expect((kn == km) == (n == m))
        }
    }
}
