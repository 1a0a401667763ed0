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

    /// Parses a floating-point number (`seek`, `seekcur`). Error: `Float expected: abc` (code 2).
    public func float() throws(MPDError) -> Double {
        let trimmed = bytes.drop { CNumberScan.isCSpace($0) }
        guard let text = String(validating: trimmed, as: UTF8.self), !text.isEmpty,
            text.utf8.allSatisfy({ $0 > 0x20 }), let value = Double(text)
        else { throw .argument("Float expected: \(string)") }
        return value
    }

    /// Parses a position or range: `N` (= `N:N+1`), `S:E`, `S:` (open end), or `-1` (all).
    ///
    /// Errors (code 2): `Integer or range expected: a:b`, `Number is negative: -2`,
    /// `Number too large: N`, `Malformed range: 3:1`.
    public func range() throws(MPDError) -> MPDRange {
        let expected = MPDError.argument("Integer or range expected: \(string)")
        let first = CNumberScan(bytes)
        let colon = UInt8(ascii: ":")
        guard first.hasDigits, first.end == bytes.count || bytes[first.end] == colon else { throw expected }
        let start = first.signedValue
        if start == -1 && first.end == bytes.count { return .all }
        try Self.checkRangeBound(start, string)
        guard first.end < bytes.count else {
            return MPDRange(start: Int(start), end: Int(start) + 1)
        }
        let endStart = first.end + 1
        if endStart == bytes.count { return MPDRange(start: Int(start), end: nil) }
        let second = CNumberScan(bytes, from: endStart)
        guard second.end == bytes.count else { throw expected }
        let end = second.hasDigits ? second.signedValue : Int64(Int32.max)
        try Self.checkRangeBound(end, string)
        guard start <= end else { throw .argument("Malformed range: \(string)") }
        return MPDRange(start: Int(start), end: Int(end))
    }

    private static func checkRangeBound(_ value: Int64, _ text: String) throws(MPDError) {
        if value < 0 { throw .argument("Number is negative: \(text)") }
        if value > Int64(Int32.max) { throw .argument("Number too large: \(text)") }
    }
}
