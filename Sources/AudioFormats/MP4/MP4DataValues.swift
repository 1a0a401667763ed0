/// Decoding the value of an `ilst` `data` atom by its type indicator (the "well-known types" of
/// Apple's QuickTime file format: 1 UTF-8, 2 UTF-16 big-endian, 21 and 22 integers, 0 implicit).
extension MP4Tags {
    /// Text of a text-typed value; implicit (0) and the sort variants are taken as UTF-8, undecodable bytes
    /// become U+FFFD. Nil for a type that is not text (an image, a number).
    static func decode(_ bytes: ArraySlice<UInt8>, type: Int) -> String? {
        switch type {
        case 0, 1, 3, 4: return String(decoding: bytes, as: UTF8.self)
        case 2, 5: return utf16BigEndian(bytes)
        case 21: return integer(bytes, type: 21).map(String.init)
        case 22: return integer(bytes, type: 22).map(String.init)
        default: return nil
        }
    }

    /// A big-endian integer of 1, 2, 3, 4 or 8 bytes: signed for type 21, unsigned for 22 and implicit 0
    /// (`tmpo`, `stik`, `cpil` and `gnre` are written either way). Nil for another width or type.
    static func integer(_ bytes: ArraySlice<UInt8>, type: Int) -> Int64? {
        guard [0, 21, 22].contains(type), [1, 2, 3, 4, 8].contains(bytes.count) else { return nil }
        var c = ByteCursor(bytes)
        guard let raw = c.uint(bytes.count, bigEndian: true) else { return nil }
        if type == 21 {  // sign-extend from the value's width
            let shift = UInt64(64 - 8 * bytes.count)
            return Int64(bitPattern: raw << shift) >> Int64(shift)
        }
        return raw <= UInt64(Int64.max) ? Int64(raw) : nil
    }

    /// The text of a `mean` or `name` atom's body: UTF-8.
    static func text(_ body: ByteCursor) -> String {
        trimmingNULs(String(decoding: body.bytes[body.position...], as: UTF8.self))
    }

    static func utf16BigEndian(_ bytes: ArraySlice<UInt8>) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var c = ByteCursor(bytes)
        while let unit = c.u16be() { units.append(unit) }
        if units.first == 0xFEFF { units.removeFirst() }
        return String(decoding: units, as: UTF16.self)
    }

    /// The text without leading and trailing NULs (some writers end each value with one).
    static func trimmingNULs(_ s: String) -> String {
        guard s.unicodeScalars.first == "\0" || s.unicodeScalars.last == "\0" else { return s }
        let scalars = s.unicodeScalars.drop { $0 == "\0" }.reversed().drop { $0 == "\0" }.reversed()
        return String(String.UnicodeScalarView(scalars))
    }
}
