import MPDProtocol
import Testing

/// The number parsers, with the C library quirks MPD inherits from `strtol`/`strtoul`/`strtof`.
@Suite struct ArgumentParsingTests {
    @Test func integers() throws {
        #expect(try MPDArgument("12").integer() == 12)
        #expect(try MPDArgument(" 1").integer() == 1)
        #expect(try MPDArgument("+1").integer() == 1)
        #expect(try MPDArgument("-2").integer() == -2)
        #expect(throws: MPDError.argument("Integer expected: 1x")) { try MPDArgument("1x").integer() }
        #expect(throws: MPDError.argument("Integer expected: ")) { try MPDArgument("").integer() }
        #expect(throws: MPDError.argument("Integer expected: 1.5")) { try MPDArgument("1.5").integer() }
        #expect(throws: MPDError.argument("Number too large: 99999999999")) {
            try MPDArgument("99999999999").integer()
        }
        #expect(throws: MPDError.argument("Number too large: 256")) { try MPDArgument("256").integer(in: 0...255) }
    }

    @Test func unsignedWrapsNegativeNumbersLikeStrtoul() throws {
        #expect(try MPDArgument("100").unsigned(max: 100) == 100)
        #expect(try MPDArgument("-0").unsigned(max: 100) == 0)
        #expect(throws: MPDError.argument("Number too large: -1")) { try MPDArgument("-1").unsigned(max: 100) }
        #expect(throws: MPDError.argument("Number too large: 1000")) { try MPDArgument("1000").unsigned(max: 100) }
        #expect(throws: MPDError.argument("Integer expected: x")) { try MPDArgument("x").unsigned() }
    }

    @Test func booleansAreOnlyZeroOrOne() throws {
        #expect(try MPDArgument("1").boolean())
        #expect(try !MPDArgument("0").boolean())
        for text in ["2", "-1", "yes", "", "1 "] {
            #expect(throws: MPDError.argument("Boolean (0/1) expected: \(text)")) { try MPDArgument(text).boolean() }
        }
    }

    @Test func floats() throws {
        #expect(try MPDArgument("1.5").float() == 1.5)
        #expect(try MPDArgument(" -3").float() == -3)
        #expect(try MPDArgument("+2").float() == 2)
        #expect(throws: MPDError.argument("Float expected: abc")) { try MPDArgument("abc").float() }
        #expect(throws: MPDError.argument("Float expected: 1e")) { try MPDArgument("1e").float() }
    }

    @Test func ranges() throws {
        #expect(try MPDArgument("3").range() == MPDRange(start: 3, end: 4))
        #expect(try MPDArgument("1:3").range() == MPDRange(start: 1, end: 3))
        #expect(try MPDArgument("2:").range() == MPDRange(start: 2, end: nil))
        #expect(try MPDArgument("2:2").range() == MPDRange(start: 2, end: 2))
        #expect(try MPDArgument("-1").range().isAll)
        let errors: [(String, String)] = [
            ("a:b", "Integer or range expected: a:b"), ("1:2:3", "Integer or range expected: 1:2:3"),
            ("x", "Integer or range expected: x"), (":3", "Integer or range expected: :3"),
            ("3:1", "Malformed range: 3:1"), ("1:0", "Malformed range: 1:0"),
            ("-2", "Number is negative: -2"), ("1:-1", "Number is negative: 1:-1"),
            ("3000000000", "Number too large: 3000000000"),
        ]
        for (text, message) in errors {
            #expect(throws: MPDError.argument(message)) { try MPDArgument(text).range() }
        }
    }

    @Test func rangesClampToTheList() {
        #expect(MPDRange(start: 1, end: 10).clamped(toCount: 3) == 1..<3)
        #expect(MPDRange(start: 1, end: 2).clamped(toCount: 1) == 1..<1)
        #expect(MPDRange(start: 2, end: 3).clamped(toCount: 1) == nil)
        #expect(MPDRange.all.clamped(toCount: 4) == 0..<4)
    }

    @Test func insertPositions() throws {
        #expect(try MPDArgument("2").insertPosition(queueLength: 3, currentPosition: nil) == 2)
        #expect(try MPDArgument("3").insertPosition(queueLength: 3, currentPosition: nil) == 3)
        #expect(try MPDArgument("+0").insertPosition(queueLength: 5, currentPosition: 1) == 2)
        #expect(try MPDArgument("-0").insertPosition(queueLength: 5, currentPosition: 1) == 1)
        #expect(try MPDArgument("-1").insertPosition(queueLength: 5, currentPosition: 1) == 0)
        #expect(throws: MPDError.argument("Number too large: 99")) {
            try MPDArgument("99").insertPosition(queueLength: 3, currentPosition: nil)
        }
        #expect(throws: MPDError.argument("Number too large: 2")) {
            try MPDArgument("-2").insertPosition(queueLength: 5, currentPosition: 1)
        }
        #expect(throws: MPDError.playerSync("No current song")) {
            try MPDArgument("+1").insertPosition(queueLength: 3, currentPosition: nil)
        }
    }

    /// Song times never trap, whatever float a client sends (`seek 0 nan` once stopped the service).
    @Test func songTimesSaturateInsteadOfTrapping() throws {
        #expect(try MPDArgument("1.5").songTimeMilliseconds() == 1500)
        #expect(try MPDArgument("nan").songTimeMilliseconds() == 0)
        #expect(try MPDArgument("-0").songTimeMilliseconds() == 0)
        for huge in ["inf", "1e300", "9223372036854775807", "18446744073709551616"] {
            #expect(try MPDArgument(huge).songTimeMilliseconds() == Int(UInt32.max), "\(huge)")
        }
        for negative in ["-1", "-inf", "-1e300"] {
            #expect(throws: MPDError.argument("Negative value not allowed: \(negative)")) {
                try MPDArgument(negative).songTimeMilliseconds()
            }
        }
        #expect(try MPDArgument("+2").signedSongTimeMilliseconds() == 2000)
        #expect(try MPDArgument("-inf").signedSongTimeMilliseconds() == Int(Int32.min))
        #expect(try MPDArgument("+1e300").signedSongTimeMilliseconds() == Int(Int32.max))
        #expect(try MPDArgument("nan").signedSongTimeMilliseconds() == 0)
        #expect(throws: MPDError.argument("Float expected: 1x")) { try MPDArgument("1x").signedSongTimeMilliseconds() }
    }

    /// `plchanges` versions as MPD reads them: strtoul, kept in 32 bits, never a range error.
    @Test func queueVersionsWrapAsMPDs() throws {
        #expect(try MPDArgument("17").queueVersion() == 17)
        #expect(try MPDArgument("4294967296").queueVersion() == 0)
        #expect(try MPDArgument("-1").queueVersion() == Int(UInt32.max))
        #expect(try MPDArgument("18446744073709551616").queueVersion() == Int(UInt32.max))
        #expect(throws: MPDError.argument("Integer expected: nan")) { try MPDArgument("nan").queueVersion() }
    }

    @Test func keywordsMatchIgnoringCaseOnlyWhenAsked() {
        #expect(MPDArgument("clear").equals("clear"))
        #expect(!MPDArgument("Clear").equals("clear"))
        #expect(MPDArgument("MUSICBRAINZ_albumid").equalsIgnoringCase("musicbrainz_AlbumID"))
        #expect(MPDTag(name: "albumartist") == .albumArtist)
        #expect(MPDTag.tagtypes.count == 30)
    }
}
