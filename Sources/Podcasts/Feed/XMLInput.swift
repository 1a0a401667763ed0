// Every document goes to XMLParser as valid UTF-8 without its XML declaration. Foundation's XMLParser
// (swift-corelibs-foundation) runs libxml2 in recovery mode and force-unwraps the element and attribute
// names libxml2 hands back as UTF-8: a name with bytes that are not UTF-8 (`<s\xCBtit>`, found by the fuzz
// target) trapped the whole process. So the bytes are decoded here, in the encoding the declaration or the
// byte-order mark names (UTF-8, UTF-16, ISO-8859-1, Windows-1252, ASCII; anything else read as UTF-8),
// with every ill-formed sequence replaced by U+FFFD, and the declaration dropped so libxml2 reads the
// result as the UTF-8 it is.
// A second trap of the same parser, also found by the fuzz target: a processing instruction with no data
// (`<?x?>`) reaches its callback as a NULL pointer, which it passes to strlen. `guardInstructions` writes
// each such one as `<?x ?>` (the same instruction to XML, data ""), wherever it is: inside a comment or
// CDATA section the text gains one space, which no field of a feed depends on.
import Foundation

enum XMLInput {
    static func utf8(_ data: Data) -> Data {
        guardInstructions(decoded(data))
    }

    /// `<?NAME?>` as `<?NAME ?>`: libxml2 reports the first with no data at all (NULL), the second with "".
    static func guardInstructions(_ data: Data) -> Data {
        guard data.count >= 4 else { return data }
        let bytes = [UInt8](data)
        var out: [UInt8] = []
        var copied = 0
        var i = 0
        let n = bytes.count
        while i + 1 < n {
            guard bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "?") else {
                i += 1
                continue
            }
            var j = i + 2
            while j < n, isNameByte(bytes[j]) { j += 1 }
            if j + 1 < n, bytes[j] == UInt8(ascii: "?"), bytes[j + 1] == UInt8(ascii: ">") {
                if out.isEmpty { out.reserveCapacity(n + 16) }
                out.append(contentsOf: bytes[copied..<j])
                out.append(0x20)
                copied = j
            }
            i = max(j, i + 2)
        }
        if copied == 0 { return data }
        out.append(contentsOf: bytes[copied...])
        return Data(out)
    }

    /// Bytes an XML name (a processing instruction's target) may hold: ASCII letters, digits, `.-_:`, and
    /// every byte of a multi-byte UTF-8 character.
    @inline(__always) static func isNameByte(_ b: UInt8) -> Bool {
        b >= 0x80 || isLetter(b) || isDigit(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
            || b == UInt8(ascii: ":")
    }

    static func decoded(_ data: Data) -> Data {
        var bytes = data[...]
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            let text = String(data: data, encoding: .utf16) ?? String(decoding: data, as: UTF8.self)
            return Data(dropDeclaration(text).utf8)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var encoding = "utf-8"
        if let (end, named) = declaration(bytes) {
            bytes = bytes[end...]
            encoding = named
        }
        switch encoding {
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso_8859-1":
            var text = ""
            text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
            return Data(text.utf8)
        case "windows-1252", "cp1252":
            if let text = String(data: Data(bytes), encoding: .windowsCP1252) { return Data(text.utf8) }
            return Data(String(decoding: bytes, as: UTF8.self).utf8)
        default:
            return Data(String(decoding: bytes, as: UTF8.self).utf8)
        }
    }

    /// The end of a leading `<?xml …?>` (after blank space) and its `encoding`, lowercased ("utf-8" if none).
    static func declaration(_ bytes: Data.SubSequence) -> (Data.Index, String)? {
        var i = bytes.startIndex
        while i < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        guard bytes[i...].starts(with: Array("<?xml".utf8)) else { return nil }
        let limit = bytes.index(i, offsetBy: 512, limitedBy: bytes.endIndex) ?? bytes.endIndex
        var j = i + 5
        while j + 1 < limit, !(bytes[j] == UInt8(ascii: "?") && bytes[j + 1] == UInt8(ascii: ">")) { j += 1 }
        guard j + 1 < limit else { return nil }
        let head = String(decoding: bytes[i..<j], as: UTF8.self).lowercased()
        var encoding = "utf-8"
        if let at = head.range(of: "encoding") {
            let rest = head[at.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
            encoding = String(rest.prefix { $0 != "\"" && $0 != "'" && $0 != " " && $0 != "?" })
        }
        return (j + 2, encoding)
    }

    static func dropDeclaration(_ text: String) -> String {
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        guard trimmed.hasPrefix("<?xml"), let end = trimmed.range(of: "?>") else { return text }
        return String(trimmed[end.upperBound...])
    }
}
