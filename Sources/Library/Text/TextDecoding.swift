/// Byte-to-text conversions for tags and file names, never failing: invalid input becomes U+FFFD
/// and is reported through `valid`.
enum TextDecoding {
    /// Windows-1252 code points for 0x80–0x9F (ID3v1 tags are Latin-1 in the spec, CP1252 in practice;
    /// the two agree everywhere else). 0 marks the five undefined bytes, which map as Latin-1.
    private static let cp1252: [UInt16] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E,
        0x0178,
    ]

    /// Decodes Latin-1 bytes (ID3v2 encoding 0, URL frames).
    static func latin1<C: Collection<UInt8>>(_ bytes: C) -> String {
        var s = String.UnicodeScalarView()
        for b in bytes { s.append(Unicode.Scalar(b)) }
        return String(s)
    }

    /// Decodes an ID3v1 field: up to the first NUL, CP1252, trailing spaces trimmed.
    static func id3v1<C: Collection<UInt8>>(_ bytes: C) -> String {
        var s = String.UnicodeScalarView()
        for b in bytes.prefix(while: { $0 != 0 }) {
            if b >= 0x80, b <= 0x9F, case let cp = cp1252[Int(b - 0x80)], cp != 0 {
                s.append(Unicode.Scalar(cp)!)
            } else {
                s.append(Unicode.Scalar(b))
            }
        }
        return String(String(s).reversed().drop { $0 == " " }.reversed())
    }

    /// Decodes UTF-8, reporting whether the bytes were valid.
    static func utf8<C: Collection<UInt8>>(_ bytes: C) -> (text: String, valid: Bool) {
        if let s = String(validating: bytes, as: UTF8.self) { return (s, true) }
        return (String(decoding: bytes, as: UTF8.self), false)
    }

    /// Decodes an ID3v2 text frame payload (encoding byte, then text) into its NUL-separated values.
    static func id3Text(_ p: [UInt8]) -> [String] {
        guard let enc = p.first else { return [] }
        let body = p.dropFirst()
        var values: [String]
        switch enc {
        case 0: values = body.split(separator: 0, omittingEmptySubsequences: false).map { latin1($0) }
        case 3: values = body.split(separator: 0, omittingEmptySubsequences: false).map { utf8($0).text }
        default: values = utf16Values(Array(body), bigEndianDefault: enc == 2)
        }
        while values.last?.isEmpty == true { values.removeLast() }
        return values
    }

    /// Splits UTF-16 text on 16-bit NULs; each value may start with its own byte-order mark.
    static func utf16Values(_ b: [UInt8], bigEndianDefault: Bool) -> [String] {
        var values: [String] = []
        var units: [UInt16] = []
        var bigEndian = bigEndianDefault
        var i = 0
        var atStart = true
        while i + 1 < b.count {
            let be = UInt16(b[i]) << 8 | UInt16(b[i + 1])
            let unit = bigEndian ? be : be.byteSwapped
            i += 2
            if atStart, be == 0xFEFF || be == 0xFFFE {
                bigEndian = be == 0xFEFF
                atStart = false
                continue
            }
            atStart = false
            if unit == 0 {
                values.append(String(decoding: units, as: UTF16.self))
                units.removeAll(keepingCapacity: true)
                atStart = true
                bigEndian = bigEndianDefault
            } else {
                units.append(unit)
            }
        }
        values.append(String(decoding: units, as: UTF16.self))
        return values
    }
}
