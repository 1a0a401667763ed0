import Devices
import Testing

/// The LCDproc line codec, byte by byte: replies, asynchronous lines, the connect line, quoting.
@Suite struct LCDprocLinesTests {
    @Test func repliesAndAsynchronousLinesAreToldApartAcrossChunks() {
        var lines = LCDprocLines()
        #expect(lines.feed(Array("succ".utf8)).isEmpty)
        let out = lines.feed(
            Array("ess\nlisten clickwheel\r\nsuccess\nkey Up\nhuh? Unknown widget id\nmenuevent x\n".utf8))
        #expect(
            out == [
                .success, .event("listen clickwheel"), .success, .event("key Up"), .failure("Unknown widget id"),
                .event("menuevent x"),
            ])
        #expect(out.filter(\.isReply).count == 3)
        #expect(lines.feed(Array("noop complete\nignore s\n".utf8)) == [.other("noop complete"), .event("ignore s")])
    }

    @Test func theConnectLineIsReadByKeyword() throws {
        let line = "connect LCDproc 0.5.9 protocol 0.3 lcd wid 20 hgt 4 cellwid 5 cellhgt 8"
        guard case .connect(let info) = LCDprocLines.classify(line) else {
            Issue.record("not a connect line")
            return
        }
        #expect(info.version == "0.5.9" && info.protocolVersion == "0.3")
        #expect(info.columns == 20 && info.rows == 4 && info.cellWidth == 5 && info.cellHeight == 8)
        #expect(LCDprocServerInfo("connect LCDproc 0.5.9 lcd hgt 2 wid 16")?.columns == 16)
        #expect(LCDprocServerInfo("connect LCDproc 0.5.9") == nil)
    }

    /// Fuzz target 5's size check: a server claiming a display too big to build (each row becomes a
    /// widget and a command) fails the handshake instead of allocating a row per claimed line.
    @Test func aConnectLineWithAnAbsurdSizeIsNotAConnect() {
        #expect(LCDprocServerInfo("connect LCDproc 0.5.9 lcd wid 256 hgt 64")?.rows == 64)
        #expect(LCDprocServerInfo("connect LCDproc 0.5.9 lcd wid 20 hgt 4000000000") == nil)
        #expect(LCDprocServerInfo("connect LCDproc 0.5.9 lcd wid 9223372036854775807 hgt 4") == nil)
        #expect(LCDprocServerInfo("connect LCDproc 0.5.9 lcd wid 257 hgt 4") == nil)
        #expect(LCDprocServerInfo("connect LCDproc 0.5.9 lcd wid 20 hgt 0") == nil)
        let line = "connect LCDproc 0.5.9 protocol 0.3 lcd wid 20 hgt 99999 cellwid 5 cellhgt 8"
        #expect(LCDprocLines.classify(line) == .other(line))
    }

    /// A peer that never sends a newline: the buffer stops at `maxLine` bytes and the line, when it
    /// ends, comes out cut to that length; the next line is whole.
    @Test func anEndlessLineIsCutAtTheLimit() {
        var lines = LCDprocLines()
        for _ in 0..<1000 { #expect(lines.feed([UInt8](repeating: UInt8(ascii: "x"), count: 1000)).isEmpty) }
        let out = lines.feed(Array("\nsuccess\n".utf8))
        #expect(out == [.other(String(repeating: "x", count: LCDprocLines.maxLine)), .success])
    }

    @Test func quotingEscapesQuotesAndBackslashes() {
        #expect(LCDprocQuote.quoted(#"Say "hi" \o/"#) == #""Say \"hi\" \\o/""#)
        #expect(LCDprocQuote.quoted("Café") == "\"Café\"")
    }

    /// Fuzz target 5's finding: a quote or backslash followed by a combining mark is one Character, so
    /// quoting by Character left it unescaped and the quote ended LCDd's argument early. And a line
    /// break ended the command.
    @Test func aQuoteWithACombiningMarkIsStillEscaped() {
        #expect(Array(LCDprocQuote.quoted("a\"\u{301}b").utf8) == Array("\"a\\\"\u{301}b\"".utf8))
        #expect(Array(LCDprocQuote.quoted("\\\u{34C}").utf8) == Array("\"\\\\\u{34C}\"".utf8))
        #expect(LCDprocQuote.quoted("one\ntwo\r") == "\"one two \"")
    }
}
