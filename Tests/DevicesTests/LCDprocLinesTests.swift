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

    @Test func quotingEscapesQuotesAndBackslashes() {
        #expect(LCDprocQuote.quoted(#"Say "hi" \o/"#) == #""Say \"hi\" \\o/""#)
        #expect(LCDprocQuote.quoted("Café") == "\"Café\"")
    }
}
