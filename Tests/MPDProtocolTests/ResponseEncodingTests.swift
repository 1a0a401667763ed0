import MPDProtocol
import Testing

/// Response lines, ACKs, binary chunks and the sanitising of outgoing values.
@Suite struct ResponseEncodingTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func fieldsAndFraming() {
        var writer = MPDResponseWriter()
        writer.field("file", "Beta Singer/Solo/01 Alone.mp3")
        writer.field("Time", 15)
        writer.field("Last-Modified", "2026-11-22T01:41:26Z")
        #expect(
            Self.text(writer.bytes)
                == "file: Beta Singer/Solo/01 Alone.mp3\nTime: 15\nLast-Modified: 2026-11-22T01:41:26Z\n")
        #expect(MPDResponse.ok == Array("OK\n".utf8))
        #expect(MPDResponse.listOK == Array("list_OK\n".utf8))
    }

    @Test func ackLines() {
        #expect(Self.text(MPDResponse.ack(.argument("Bad song index"), index: 2, command: "play"))
            == "ACK [2@2] {play} Bad song index\n")
        #expect(Self.text(MPDResponse.ack(.unknownCommand("foo"), index: 0, command: ""))
            == "ACK [5@0] {} unknown command \"foo\"\n")
        #expect(Self.text(MPDResponse.ack(MPDError(.exist, "Playlist already exists"), index: 0, command: "save"))
            == "ACK [56@0] {save} Playlist already exists\n")
    }

    @Test func binaryChunksAreRawAndFollowedByOneNewline() {
        var writer = MPDResponseWriter()
        writer.field("size", 23193)
        writer.binary([0x89, 0x50, 0x0A, 0x00, 0xFF])
        #expect(writer.bytes == Array("size: 23193\nbinary: 5\n".utf8) + [0x89, 0x50, 0x0A, 0x00, 0xFF, 0x0A])
        var empty = MPDResponseWriter()
        empty.binary([UInt8]())
        #expect(Self.text(empty.bytes) == "binary: 0\n\n")
    }

    @Test func streamingWriterHandsChunksToItsSinkInOrder() {
        final class Collected: @unchecked Sendable {
            var chunks: [[UInt8]] = []
        }
        let collected = Collected()
        let listing = MPDCommand<StubContext>("listallinfo", .between(0, 1), permission: .read) {
            (_, _, writer) throws(MPDError) in
            for index in 0..<100 { writer.field("file", "song \(index).mp3") }
        }
        let table = MPDCommandTable([listing])
        var context = StubContext()
        let writer = MPDResponseWriter(flushingAt: 256) { collected.chunks.append($0) }
        let batch = MPDCommandBatch(mode: .listOK, lines: [Array("listallinfo".utf8), Array("ping".utf8)])
        let result = table.execute(batch, context: &context, writer: writer)
        #expect(collected.chunks.count > 5)
        #expect(collected.chunks.allSatisfy { $0.count >= 256 && $0.count < 256 + 20 })
        let whole = collected.chunks.joined() + result.output
        let expected = (0..<100).map { "file: song \($0).mp3\n" }.joined() + "list_OK\nlist_OK\nOK\n"
        #expect(Self.text(Array(whole)) == expected)
    }

    @Test func controlCharactersInValuesBecomeSpaces() {
        var writer = MPDResponseWriter()
        writer.field("Title", "evil\nOK\r\tx")
        #expect(Self.text(writer.bytes) == "Title: evil OK  x\n")
        #expect(Self.text(MPDResponse.ack(.argument("Integer expected: 1\u{1}"), index: 0, command: "play"))
            == "ACK [2@0] {play} Integer expected: 1 \n")
    }

    @Test func invalidUTF8InByteValuesIsReplaced() {
        var writer = MPDResponseWriter()
        writer.field("playlist", bytes: [0x62, 0x61, 0x64, 0xFF, 0x6E, 0xC3, 0x0A, 0xC3, 0xA9, 0xE6, 0x97, 0xA5])
        #expect(Self.text(writer.bytes) == "playlist: bad\u{FFFD}n\u{FFFD} é日\n")
        var surrogate = MPDResponseWriter()
        surrogate.field("x", bytes: [0xED, 0xA0, 0x80, 0xF0, 0x9F, 0x8E, 0xB5])
        #expect(Self.text(surrogate.bytes) == "x: \u{FFFD}\u{FFFD}\u{FFFD}🎵\n")
    }

    @Test func idleAnswersUseTheFixedOrder() throws {
        let events: MPDIdleSubsystems = [.update, .options, .database, .screen, .player]
        #expect(Self.text(events.encodedAnswer()) == """
            changed: database
            changed: player
            changed: options
            changed: update
            changed: screen
            OK

            """)
        #expect(throws: MPDError.argument("Unrecognized idle event: bogus")) {
            try MPDIdleSubsystems.parse(["player", "bogus"])
        }
        #expect(try MPDIdleSubsystems.parse(["Player", "OPTIONS"]) == [.player, .options])
        #expect(try MPDIdleSubsystems.parse([]) == .all)
    }
}
