// Every document goes to XMLParser as valid UTF-8 without its XML declaration. Foundation's XMLParser
// (swift-corelibs-foundation) runs libxml2 in recovery mode and force-unwraps the element and attribute
// names libxml2 hands back as UTF-8: a name with bytes that are not UTF-8 (`<s\xCBtit>`, found by the fuzz
// target) trapped the whole process. So the bytes are decoded here, in the encoding the declaration or the
// byte-order mark names (UTF-8, UTF-16, ISO-8859-1, Windows-1252, ASCII; anything else read as UTF-8),
// with every ill-formed sequence replaced by U+FFFD, and the declaration dropped so libxml2 reads the
// result as the UTF-8 it is.
import Foundation

enum XMLInput {
    static func utf8(_ data: Data) -> Data {
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
