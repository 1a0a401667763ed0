import MPDProtocol
import Testing

/// The tokenizer on its own: what each line becomes, byte for byte.
@Suite struct TokenizerTests {
    static func tokenize(_ line: [UInt8]) throws(MPDTokenizer.Failure) -> MPDRequest {
        try MPDTokenizer.tokenize(MPDRequestLine.clean(line))
    }

    @Test func splitsOnAnyWhitespaceRun() throws {
        let request = try Self.tokenize(Array("addid \"x\"  3".utf8))
        #expect(request == MPDRequest(name: "addid", arguments: ["x", "3"]))
        #expect(try Self.tokenize([0x70, 0x69, 0x6E, 0x67, 0x0D, 0x73]).arguments == ["s"])
    }

    @Test func unquotedArgumentsKeepEveryByteAbove0x20() throws {
        let request = try Self.tokenize(Array("lsinfo a/b.c-d+e,f:g@h~i café -1 +2 1:3".utf8))
        #expect(request.arguments == ["a/b.c-d+e,f:g@h~i", "café", "-1", "+2", "1:3"])
    }

    @Test func quotedArgumentsUnescapeEveryByte() throws {
        let request = try Self.tokenize(Array(#"find "a\"b" "c\\d" "\n\/" """#.utf8))
        #expect(request.arguments == [#"a"b"#, #"c\d"#, "n/", ""])
    }

    @Test func invalidUTF8PassesThroughUntouched() throws {
        let request = try Self.tokenize([0x73, 0x61, 0x76, 0x65, 0x20, 0x22, 0x62, 0xFF, 0x22])
        #expect(request.arguments == [MPDArgument(bytes: [0x62, 0xFF])])
        #expect(request.arguments[0].validString == nil)
    }

    @Test func cleaningCutsAtNULAndStripsTrailingWhitespace() {
        #expect(Array(MPDRequestLine.clean(Array("ping\0garbage".utf8))) == Array("ping".utf8))
        #expect(Array(MPDRequestLine.clean(Array("ping \u{0B}\r".utf8))) == Array("ping".utf8))
        #expect(MPDRequestLine.clean([0x20, 0x01]).isEmpty)
    }

    @Test(arguments: [
        ("st@tus", MPDTokenizer.Failure.invalidWordCharacter),
        ("status\"x\"", .invalidWordCharacter),
        ("lsinfo 'x'", .invalidUnquotedCharacter),
        ("ping x\"y\"", .invalidUnquotedCharacter),
        ("lsinfo \"a\"b", .spaceExpectedAfterClosingQuote),
        ("lsinfo \"a", .missingClosingQuote),
        ("lsinfo \"a\\", .missingClosingQuote),
    ])
    func failures(line: String, failure: MPDTokenizer.Failure) {
        #expect(throws: failure) { try Self.tokenize(Array(line.utf8)) }
    }

    @Test func onlyABadCommandNameClosesTheConnection() {
        #expect(MPDTokenizer.Failure.invalidWordCharacter.closesConnection)
        #expect(!MPDTokenizer.Failure.missingClosingQuote.closesConnection)
        #expect(MPDTokenizer.Failure.tooManyArguments.error == MPDError(.argument, "Too many arguments"))
        let spaceExpected = MPDTokenizer.Failure.spaceExpectedAfterClosingQuote.error
        #expect(spaceExpected.message == "Space expected after closing '\"'")
    }
}
