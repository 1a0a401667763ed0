import MPDProtocol
import Testing

/// The input limits of §17.6, §17.7 and §15 of the reference: line length, argument count and
/// command-list size, each at the last accepted size and one past it.
@Suite struct LimitTests {
    /// `lsinfo "aaa…a"` padded so that the line without its `\n` is exactly `length` bytes.
    static func lsinfoLine(length: Int) -> [UInt8] {
        Array("lsinfo \"".utf8) + Array(repeating: UInt8(ascii: "a"), count: length - 9) + [UInt8(ascii: "\"")]
    }

    static let greeting = Array("OK MPD 0.23.5\n".utf8)
    static let noSuchDirectory = Array("ACK [50@0] {lsinfo} No such directory\n".utf8)

    @Test(arguments: [4095, 4096, 4097, 8191])
    func acceptsLinesUpTo8191Bytes(length: Int) {
        var driver = SessionDriver()
        driver.receive(Self.lsinfoLine(length: length) + [10] + Array("ping\n".utf8))
        #expect(driver.output == Self.greeting + Self.noSuchDirectory + Array("OK\n".utf8))
        #expect(!driver.closed)
    }

    @Test(arguments: [8192, 8193, 16383, 16384, 70000])
    func closesOnLinesOf8192BytesOrMore(length: Int) {
        var driver = SessionDriver()
        driver.receive(Self.lsinfoLine(length: length) + [10])
        #expect(driver.output == Self.greeting)
        #expect(driver.closed)
    }

    @Test(arguments: [8191, 8192])
    func pieceSizeDoesNotMatter(length: Int) {
        var driver = SessionDriver()
        let line = Self.lsinfoLine(length: length) + [10]
        for start in stride(from: 0, to: line.count, by: 1000) {
            driver.receive(line[start..<min(start + 1000, line.count)])
        }
        #expect(driver.closed == (length == 8192))
        #expect(driver.output == Self.greeting + (length == 8191 ? Self.noSuchDirectory : []))
    }

    @Test func partialLineWaitsForItsNewline() {
        var driver = SessionDriver()
        driver.receive(Array("lsinfo ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 4993))
        #expect(driver.output == Self.greeting)
        #expect(!driver.closed)
        driver.receive([10])
        #expect(driver.output == Self.greeting + Self.noSuchDirectory)
    }

    @Test func fullBufferWithoutNewlineClosesAtOnce() {
        var driver = SessionDriver()
        driver.receive(Array("lsinfo ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 8185))
        #expect(driver.closed)
        #expect(driver.output == Self.greeting)
    }

    /// `tagtypes enable Artist … Artist` with `words` words including the command name.
    @Test(arguments: [(63, false), (64, false), (65, true), (100, true)])
    func argumentCount(words: Int, refused: Bool) {
        var driver = SessionDriver()
        let line = (["tagtypes", "enable"] + Array(repeating: "Artist", count: words - 2)).joined(separator: " ")
        driver.receive(Array("\(line)\nping\n".utf8))
        let answer = refused ? "ACK [2@0] {} Too many arguments\n" : "OK\n"
        #expect(String(decoding: driver.output, as: UTF8.self) == "OK MPD 0.23.5\n\(answer)OK\n")
    }

    @Test func tooManyArgumentsComesBeforeLaterTokenizerErrors() {
        var driver = SessionDriver()
        let pairs = Array(repeating: "Artist \"Alpha Band\"", count: 40).joined(separator: " ")
        driver.receive(Array("find \(pairs) \"unclosed\n".utf8))
        #expect(String(decoding: driver.output, as: UTF8.self) == "OK MPD 0.23.5\nACK [2@0] {} Too many arguments\n")
    }

    /// 419 430 × `ping` sum to 2 097 150 bytes and pass; one more exceeds 2 MiB and closes.
    @Test(arguments: [(419_430, false), (419_431, true)])
    func commandListSize(pings: Int, closes: Bool) {
        var driver = SessionDriver()
        var input = Array("command_list_begin\n".utf8)
        input.reserveCapacity(pings * 5 + 64)
        for _ in 0..<pings { input += "ping\n".utf8 }
        input += "command_list_end\n".utf8
        driver.receive(input)
        #expect(driver.closed == closes)
        #expect(driver.output == Self.greeting + (closes ? [] : Array("OK\n".utf8)))
    }

    @Test func smallerLimitsCanBeConfigured() {
        var driver = SessionDriver(limits: MPDLimits(lineBufferSize: 16, maxCommandListSize: 10))
        driver.receive(Array("ping\ncommand_list_begin\nping\nping\nping\n".utf8))
        #expect(driver.output == Self.greeting + Array("OK\n".utf8))
        #expect(driver.closed)
    }
}
