import MPDProtocol
import Testing

/// The filter parser's trees and its MPD 0.23 error messages.
@Suite struct FilterParserTests {
    static let find = MPDFilterParser(foldCase: false)
    static let search = MPDFilterParser(foldCase: true)

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func legacyPairsAreANDedAndFollowTheCommandsCaseRule() throws {
        #expect(try Self.find.parse(["artist", "Beta Singer"])
            == .tag(.artist, MPDStringMatch(value: Self.bytes("Beta Singer"), op: .equals, foldCase: false)))
        let pairs = try Self.search.parse(["Artist", "beta", "any", "x", "file", "y"])
        #expect(pairs == .and([
            .tag(.artist, MPDStringMatch(value: Self.bytes("beta"), op: .contains, foldCase: true)),
            .tag(nil, MPDStringMatch(value: Self.bytes("x"), op: .contains, foldCase: true)),
            .uri(MPDStringMatch(value: Self.bytes("y"), op: .contains, foldCase: true)),
        ]))
        #expect(try Self.find.parse(["base", "Alpha Band", "modified-since", "1700000000"])
            == .and([.base(Self.bytes("Alpha Band")), .modifiedSince(1_700_000_000)]))
    }

    @Test func expressions() throws {
        let value = { (text: String, op: MPDStringMatch.Operator, negated: Bool) in
            MPDStringMatch(value: Self.bytes(text), op: op, negated: negated, foldCase: false)
        }
        #expect(
            try Self.find.parse(["(Artist == \"Beta Singer\")"]) == .tag(.artist, value("Beta Singer", .equals, false)))
        #expect(try Self.find.parse(["(title != 'Noon')"]) == .tag(.title, value("Noon", .equals, true)))
        #expect(try Self.find.parse(["(any CONTAINS 'café')"]) == .tag(nil, value("café", .contains, false)))
        #expect(try Self.find.parse(["(Title !contains 'x')"]) == .tag(.title, value("x", .contains, true)))
        #expect(try Self.find.parse(["(Title =~ '^[CG]')"]) == .tag(.title, value("^[CG]", .regex, false)))
        #expect(try Self.find.parse(["(Title !~ 'a')"]) == .tag(.title, value("a", .regex, true)))
        #expect(try Self.find.parse(["(file == 'a/b.mp3')"]) == .uri(value("a/b.mp3", .equals, false)))
        #expect(try Self.find.parse(["(base 'Beta Singer')"]) == .base(Self.bytes("Beta Singer")))
        #expect(try Self.find.parse(["(AudioFormat =~ '44100:*:2')"]) == .audioFormat("44100:*:2", mask: true))
        #expect(try Self.find.parse(["(Artist == 'It\\'s')"]) == .tag(.artist, value("It's", .equals, false)))
        #expect(try Self.find.parse(["(!(Artist == \"A\"))"]) == .not(.tag(.artist, value("A", .equals, false))))
        #expect(try Self.find.parse(["((Artist == 'A'))"]) == .tag(.artist, value("A", .equals, false)))
        #expect(try Self.find.parse(["((Artist == 'A') AND (Album == 'B') AND (Disc == '2'))"]) == .and([
            .tag(.artist, value("A", .equals, false)), .tag(.album, value("B", .equals, false)),
            .tag(.disc, value("2", .equals, false)),
        ]))
    }

    @Test func startsWithIsOnlyAcceptedWhenAsked() throws {
        #expect(throws: MPDError.argument("'==' or '!=' expected")) {
            try Self.find.parse(["(Album starts_with 'Sec')"])
        }
        let newer = MPDFilterParser(foldCase: false, acceptsStartsWith: true)
        #expect(try newer.parse(["(Album starts_with 'Sec')"])
            == .tag(.album, MPDStringMatch(value: Self.bytes("Sec"), op: .startsWith, foldCase: false)))
    }

    @Test(arguments: [
        (["(Artist == 'Alpha Band') AND (Album == 'Solo')"], "Unparsed garbage after expression"),
        (["(Artist == Alpha)"], "Quoted string expected"),
        (["(Artist = 'x')"], "'==' or '!=' expected"),
        (["Artist == 'x'"], "Incorrect number of filter arguments"),
        (["(Artist == 'x'"], "')' expected"),
        (["(Foo == 'x')"], "Unknown filter type: Foo"),
        (["(Artist == 'x"], "Closing quote not found"),
        (["((Artist == 'x') OR (Album == 'y'))"], "'AND' expected"),
        (["(!Artist == 'x')"], "'(' expected"),
        (["(== 'x')"], "Word expected"),
        (["(AudioFormat != 'x')"], "'==' or '=~' expected"),
        (["(modified-since 'yesterday')"], "Failed to parse date"),
        (["artist"], "Incorrect number of filter arguments"),
        (["artist", "x", "album"], "Incorrect number of filter arguments"),
        (["bogus", "x"], "Unknown filter type"),
        (["base", "../etc"], "Bad URI"),
        (["base", ""], "Bad URI"),
    ])
    func errors(arguments: [String], message: String) {
        #expect(throws: MPDError.argument(message)) { try Self.find.parse(arguments.map { MPDArgument($0) }) }
    }

    /// Noted with fuzz target 1: each `(` is a level of recursion, and an 8 KiB line nests 4,000 levels.
    /// Up to `maxDepth` levels parse; one more is a clear argument error, whatever the nesting form.
    @Test func nestingIsBoundedAtMaxDepth() throws {
        let depth = MPDFilterParser.maxDepth
        let leaf = "(Artist == 'x')"
        // `depth` levels: depth - 1 wrapping parentheses around the expression's own.
        let deepest = String(repeating: "(", count: depth - 1) + leaf + String(repeating: ")", count: depth - 1)
        #expect(try Self.find.parse([MPDArgument(deepest)]) == Self.find.parse([MPDArgument(leaf)]))
        let tooDeep = "(" + deepest + ")"
        #expect(throws: MPDError.argument("Filter nested too deeply")) { try Self.find.parse([MPDArgument(tooDeep)]) }
        let negations = String(repeating: "(!", count: depth) + leaf + String(repeating: ")", count: depth)
        #expect(throws: MPDError.argument("Filter nested too deeply")) {
            try Self.find.parse([MPDArgument(negations)])
        }
        let ands = String(repeating: "(" + leaf + " AND ", count: depth) + leaf + String(repeating: ")", count: depth)
        #expect(throws: MPDError.argument("Filter nested too deeply")) { try Self.find.parse([MPDArgument(ands)]) }
        // The whole 8 KiB line of parentheses, as the fuzz target noted it: an error, not a deep recursion.
        let line = String(repeating: "(", count: 8180)
        #expect(throws: MPDError.argument("Filter nested too deeply")) { try Self.find.parse([MPDArgument(line)]) }
    }

    @Test func timestamps() throws {
        #expect(try MPDTimestamp.parse(Self.bytes("2000-01-01T00:00:00Z")) == 946_684_800)
        #expect(try MPDTimestamp.parse(Self.bytes("2026-11-22T01:41:25Z")) == 1_795_311_685)
        #expect(try MPDTimestamp.parse(Self.bytes("20000101")) == 946_684_800)
        #expect(try MPDTimestamp.parse(Self.bytes("2000-01-01T01:30+01:30")) == 946_684_800)
        #expect(try MPDTimestamp.parse(Self.bytes("2000-01-01T013000-0000")) == 946_690_200)
        #expect(try MPDTimestamp.parse(Self.bytes("1700000000")) == 1_700_000_000)
        #expect(throws: MPDError.argument("Garbage at end of time stamp")) {
            try MPDTimestamp.parse(Self.bytes("2000-01-01X"))
        }
        #expect(throws: MPDError.argument("Failed to parse time of day")) {
            try MPDTimestamp.parse(Self.bytes("2000-01-01T25:00"))
        }
        #expect(throws: MPDError.argument("Time offset hours out of range")) {
            try MPDTimestamp.parse(Self.bytes("2000-01-01T00:00+14:00"))
        }
    }
}
