/// A scan of an argument's leading integer with the C library's `strtol`/`strtoul` rules.
///
/// MPD parses numbers with those functions, so their quirks are part of the protocol: leading
/// whitespace and a `+`/`-` sign are accepted (`play " 1"`, `play +1`), and `strtoul` accepts a
/// minus sign by wrapping around (`setvol -1` is "too large", not "expected").
struct CNumberScan {
    /// Whether at least one digit was read (C: `endptr != s`).
    var hasDigits: Bool
    /// Index just past the digits.
    var end: Int
    var isNegative: Bool
    /// The magnitude, saturated at `UInt64.max`.
    var magnitude: UInt64
    var overflowed: Bool

    init(_ bytes: [UInt8], from start: Int = 0) {
        var index = start
        while index < bytes.count && CNumberScan.isCSpace(bytes[index]) { index += 1 }
        isNegative = false
        if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
            isNegative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var value: UInt64 = 0
        var overflow = false
        let digitsStart = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            if o1 || o2 { overflow = true }
            value = overflow ? .max : sum
            index += 1
        }
        hasDigits = index > digitsStart
        end = hasDigits ? index : start
        magnitude = value
        overflowed = overflow
    }

    /// The value `strtol` returns (clamped to the 64-bit range on overflow).
    var signedValue: Int64 {
        if isNegative {
            return magnitude > UInt64(Int64.max) ? .min : -Int64(magnitude)
        }
        return magnitude > UInt64(Int64.max) ? .max : Int64(magnitude)
    }

    /// The value `strtoul` returns (negation wraps around; overflow gives `UInt64.max`).
    var unsignedValue: UInt64 {
        if overflowed { return .max }
        return isNegative ? 0 &- magnitude : magnitude
    }

    /// C's `isspace` in the "C" locale.
    static func isCSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }
}
