/// Parses evemu-record traces: the `E: sec.usec type code value` lines, other lines ignored.
///
/// evemu writes type, code and value in hex (`0002 0000 0001`), older versions in decimal; both
/// are read the way evemu-play reads them: type and code as hex when 4 digits wide, value decimal.
public enum EvemuTrace {
    /// A line that could not be read, with its 1-based number.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var line: Int
        public var text: String
        public var description: String { "evemu trace line \(line): cannot read \"\(text)\"" }
    }

    /// The events of `text`, in order.
    public static func parse(_ text: String) throws(ParseError) -> [RawInputEvent] {
        var events: [RawInputEvent] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            guard line.hasPrefix("E:") else { continue }
            let fields = line.dropFirst(2).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard fields.count >= 4, let time = timestamp(fields[0]),
                let type = UInt16(fields[1], radix: 16), let code = UInt16(fields[2], radix: 16),
                let value = Int32(fields[3])
            else { throw ParseError(line: number + 1, text: String(raw)) }
            events.append(RawInputEvent(time: time, type: type, code: code, value: value))
        }
        return events
    }

    /// Formats events as evemu lines (the inverse of `parse`).
    public static func format(_ events: [RawInputEvent]) -> String {
        events.map { e in
            "E: \(e.time) \(hex4(e.type)) \(hex4(e.code)) \(e.value)\n"
        }.joined()
    }

    private static func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    private static func timestamp(_ field: Substring) -> Timestamp? {
        let parts = field.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let sec = Int64(parts[0]), parts[1].count <= 6, let frac = Int64(parts[1]) else {
            return nil
        }
        var usec = frac
        for _ in parts[1].count..<6 { usec *= 10 }
        return Timestamp(microseconds: sec * 1_000_000 + usec)
    }
}
