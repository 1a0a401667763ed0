/// Number parsing for arguments with MPD's exact error messages (MPD's `protocol/ArgParser`).
extension MPDArgument {
    /// Parses a signed integer in `range` (default: the C `int` range), like `play 1`.
    ///
    /// Errors: `Integer expected: 1x`, `Number too large: 99999999999` (code 2).
    public func integer(in range: ClosedRange<Int> = Int(Int32.min)...Int(Int32.max)) throws(MPDError) -> Int {
        let scan = CNumberScan(bytes)
        guard scan.hasDigits, scan.end == bytes.count else { throw .argument("Integer expected: \(string)") }
        let value = scan.signedValue
        guard value >= Int64(range.lowerBound), value <= Int64(range.upperBound) else {
            throw .argument("Number too large: \(string)")
        }
        return Int(value)
    }

    /// Parses an unsigned integer up to `max` with `strtoul` rules (so `-1` is too large).
    ///
    /// Errors: `Integer expected: x`, `Number too large: 1000` (code 2).
    public func unsigned(max: UInt64 = UInt64(UInt32.max)) throws(MPDError) -> UInt64 {
        let scan = CNumberScan(bytes)
        guard scan.hasDigits, scan.end == bytes.count else { throw .argument("Integer expected: \(string)") }
        guard scan.unsignedValue <= max else { throw .argument("Number too large: \(string)") }
        return scan.unsignedValue
    }

    /// Parses `0` or `1`. Error: `Boolean (0/1) expected: yes` (code 2).
    public func boolean() throws(MPDError) -> Bool {
        let scan = CNumberScan(bytes)
        guard scan.hasDigits, scan.end == bytes.count, scan.unsignedValue <= 1 else {
            throw .argument("Boolean (0/1) expected: \(string)")
        }
        return scan.unsignedValue == 1
    }

    /// Parses an insert position for a queue of `queueLength` songs (`add URI POS`, `addid`,
    /// `findadd … position POS`): absolute `N` (0...length), or `+N`/`-N` relative to the current
    /// song (`+0` = right after it, `-0` = right before it).
    ///
    /// Errors: `No current song` (code 55) for a relative position without a current song;
    /// `Integer expected: x`, `Number too large: 99` (code 2; the message omits the sign).
    public func insertPosition(queueLength: Int, currentPosition: Int?) throws(MPDError) -> Int {
        guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
            return Int(try unsigned(max: UInt64(max(queueLength, 0))))
        }
        guard let current = currentPosition else { throw .playerSync("No current song") }
        let offset = MPDArgument(bytes: bytes.dropFirst())
        if sign == UInt8(ascii: "+") {
            return current + 1 + Int(try offset.unsigned(max: UInt64(max(queueLength - current - 1, 0))))
        }
        return current - Int(try offset.unsigned(max: UInt64(current)))
    }

    /// Parses a floating-point number (`seek`, `seekcur`). Error: `Float expected: abc` (code 2).
    public func float() throws(MPDError) -> Double {
        let trimmed = bytes.drop { CNumberScan.isCSpace($0) }
        guard let text = String(validating: trimmed, as: UTF8.self), !text.isEmpty,
            text.utf8.allSatisfy({ $0 > 0x20 }), let value = Double(text)
        else { throw .argument("Float expected: \(string)") }
        return value
    }

    /// Parses a song time for `seek` and `seekid` (MPD's `ParseCommandArgSongTime`): seconds as a
    /// float, not negative, returned as whole milliseconds.
    ///
    /// Any float MPD accepts is accepted, and none traps: `nan` is 0 and values past MPD's song time
    /// (unsigned 32-bit milliseconds, about 49 days) saturate there; the engine then clamps to the song.
    /// Errors: `Float expected: x`, `Negative value not allowed: -1` (code 2).
    public func songTimeMilliseconds() throws(MPDError) -> Int {
        let seconds = try float()
        if seconds < 0 { throw .argument("Negative value not allowed: \(string)") }
        return Self.milliseconds(seconds, in: 0...Int(UInt32.max))
    }

    /// Parses a signed song time for `seekcur` (MPD's `ParseCommandArgSignedSongTime`): seconds as
    /// a float, as whole milliseconds; `nan` is 0, values past signed 32-bit milliseconds saturate.
    /// Error: `Float expected: x` (code 2).
    public func signedSongTimeMilliseconds() throws(MPDError) -> Int {
        Self.milliseconds(try float(), in: Int(Int32.min)...Int(Int32.max))
    }

    /// `seconds` in milliseconds, rounded and clamped to `range` (NaN is 0), so that no client value
    /// can reach a trapping `Double` to `Int` conversion or overflow the engine's arithmetic.
    static func milliseconds(_ seconds: Double, in range: ClosedRange<Int>) -> Int {
        let ms = (seconds * 1000).rounded()
        if ms.isNaN { return 0 }
        if ms <= Double(range.lowerBound) { return range.lowerBound }
        if ms >= Double(range.upperBound) { return range.upperBound }
        return Int(ms)
    }

    /// Parses a queue version for `plchanges`/`plchangesposid` as MPD does: `strtoul` (no range
    /// error; a minus sign wraps, an overflow gives the largest value) kept as MPD's 32-bit version.
    /// Error: `Integer expected: x` (code 2).
    public func queueVersion() throws(MPDError) -> Int {
        Int(UInt32(truncatingIfNeeded: try unsigned(max: .max)))
    }
}

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
