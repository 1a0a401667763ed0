/// Parses the time stamps of `modified-since` into Unix seconds, like MPD's `ParseTimeStamp`.
///
/// ISO 8601 is tried first: a date `YYYY-MM-DD` or `YYYYMMDD`, optionally `T` and a time
/// `HH[:MM[:SS]]` or `HH[MM[SS]]`, optionally `Z` or an offset `±HH[:MM]`/`±HHMM` (UTC without
/// one). If that fails and the value is all digits, it is a Unix time; otherwise the ISO error
/// is reported (code 2): `Failed to parse date`, `Failed to parse time of day`, `Failed to parse
/// time zone offset`, `Time offset hours out of range`, `Time offset minutes out of range`,
/// `Garbage at end of time stamp`.
public enum MPDTimestamp {
    /// Parses `bytes` into Unix seconds, ISO 8601 first, then a plain number.
    public static func parse(_ bytes: [UInt8]) throws(MPDError) -> Int64 {
        do {
            return try parseISO8601(bytes)
        } catch {
            if !bytes.isEmpty, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = Int64(String(decoding: bytes, as: UTF8.self))
            {
                return value
            }
            throw error
        }
    }

    static func parseISO8601(_ bytes: [UInt8]) throws(MPDError) -> Int64 {
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }
        func skip(_ byte: Character) -> Bool {
            guard index < bytes.count, bytes[index] == byte.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = number(4) else { throw .argument("Failed to parse date") }
        let separated = skip("-")
        guard let month = number(2), (1...12).contains(month), !separated || skip("-"), let day = number(2),
            (1...31).contains(day)
        else { throw .argument("Failed to parse date") }
        var seconds = 0
        if skip("T") {
            let timeError = MPDError.argument("Failed to parse time of day")
            guard let hour = number(2), hour < 24 else { throw timeError }
            seconds = hour * 3600
            let separated = skip(":")
            if let minute = number(2) {
                guard minute < 60 else { throw timeError }
                seconds += minute * 60
                if separated ? skip(":") : index < bytes.count && (0x30...0x39).contains(bytes[index]) {
                    guard let second = number(2), second <= 60 else { throw timeError }
                    seconds += second
                }
            } else if separated {
                throw timeError
            }
        }
        var offset = 0
        if skip("Z") {
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let negative = bytes[index] == UInt8(ascii: "-")
            index += 1
            guard let hours = number(2) else { throw .argument("Failed to parse time zone offset") }
            var minutes = 0
            if skip(":") {
                guard let value = number(2) else { throw .argument("Failed to parse time zone offset") }
                minutes = value
            } else if let value = number(2) {
                minutes = value
            }
            guard hours <= 13 else { throw .argument("Time offset hours out of range") }
            guard minutes < 60 else { throw .argument("Time offset minutes out of range") }
            offset = (hours * 3600 + minutes * 60) * (negative ? -1 : 1)
        }
        guard index == bytes.count else { throw .argument("Garbage at end of time stamp") }
        return Int64(daysFromCivil(year: year, month: month, day: day) * 86400 + seconds - offset)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }
}
