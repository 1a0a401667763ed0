import MPDProtocol
import PropertyBased
import Testing

/// The response writer against the tokenizer, as a property over any bytes (issue 21): every field the
/// server writes is one line of valid UTF-8 whose value a client reads after `key: `, and that value,
/// sent back as a quoted argument the way clients quote (`"` and `\` escaped: mpc, python-mpd2), is
/// read by the tokenizer as exactly that value. So any file name or tag the server lists can be added,
/// found or deleted by a client.
@Suite struct ResponseRoundTripPropertyTests {
    static let value = Gen<UInt8>.value(in: 0...255).array(of: 0...64)
    static let key = Gen<String?>.element(of: ["file", "Title", "Artist", "directory", "playlist", "Name"])
        .map { $0 ?? "file" }

    /// `bytes` as a client quotes one argument.
    static func quoted(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for b in bytes {
            if b == 0x22 || b == 0x5C { out.append(0x5C) }
            out.append(b)
        }
        return out + [0x22]
    }

    /// The one line `writer` holds, checked, and the value a client reads from it.
    static func readBack(_ writer: MPDResponseWriter, key: String) -> [UInt8]? {
        let out = writer.bytes
        #expect(out.last == 0x0A && out.filter { $0 == 0x0A }.count == 1, "not one line: \(out)")
        #expect(!out.contains(0), "a NUL in \(out)")
        #expect(String(validating: out, as: UTF8.self) != nil, "invalid UTF-8: \(out)")
        let prefix = Array((key + ": ").utf8)
        guard out.starts(with: prefix) else {
            Issue.record("the line does not start with \(key): \(out)")
            return nil
        }
        return Array(out.dropFirst(prefix.count).dropLast())
    }

    static func roundTrip(_ value: [UInt8]) {
        let line = Array("add ".utf8) + quoted(value)
        do {
            let request = try MPDTokenizer.tokenize(MPDRequestLine.clean(line))
            #expect(request.name == "add")
            #expect(request.arguments.map(\.bytes) == [value], "\(value) read back as \(request.arguments)")
        } catch {
            Issue.record("the tokenizer cannot read back \(value): \(error)")
        }
    }

    @Test func rawByteValuesReadBack() async {
        await propertyCheck(count: 3000, input: Self.key, Self.value) { key, value in
            var writer = MPDResponseWriter()
            writer.field(key, bytes: value)
            guard let sent = Self.readBack(writer, key: key) else { return }
            // What the sanitiser keeps of printable ASCII is the value itself.
            if value.allSatisfy({ (0x20..<0x7F).contains($0) }) { #expect(sent == value) }
            Self.roundTrip(sent)
        }
    }

    @Test func stringValuesReadBack() async {
        let text = Gen<UnicodeScalar>.unicodeScalar(in: "\u{0}"..."\u{2FF}").array(of: 0...40)
            .map { String(String.UnicodeScalarView($0)) }
        await propertyCheck(count: 3000, input: Self.key, text) { key, value in
            var writer = MPDResponseWriter()
            writer.field(key, value)
            guard let sent = Self.readBack(writer, key: key) else { return }
            #expect(sent == Array(value.utf8).map { $0 < 0x20 ? 0x20 : $0 })
            Self.roundTrip(sent)
        }
    }
}
