// Dates and durations as feeds write them. Hand-written scanners, not DateFormatter: real feeds bend RFC 822
// every way (no weekday, full month names, two-digit years, no seconds, named US zones, "+01:00", a
// trailing "(UTC)"), and a formatter per variant is slow and still misses some.
public import Foundation

public enum FeedDates {
    /// An RFC 822 date (`pubDate`) in any of its usual real-world forms, or an ISO 8601 one (some RSS feeds
    /// write those; Atom always does). Nil when it cannot be read as a date.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8.prefix(128))
        var start = 0
        while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 || bytes[start] == 0x0A || bytes[start] == 0x0D {
            start += 1
        }
        let trimmed = bytes[start...]
        if trimmed.count >= 10, trimmed.prefix(4).allSatisfy(isDigit), trimmed[start + 4] == UInt8(ascii: "-") {
            return iso8601(Array(trimmed))
        }
        return rfc822(Array(trimmed))
    }

    /// RFC 3339 / ISO 8601: `2024-05-01`, `2024-05-01T10:20:30Z`, `…T10:20:30.25+02:00`, `… 10:20:30`,
    /// `…T10:20` (no zone: UTC).
    public static func iso8601(_ text: String) -> Date? { iso8601(Array(text.utf8.prefix(128))) }

    static func iso8601(_ b: [UInt8]) -> Date? {
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= b.count else { return nil }
            var value = 0
            for k in i..<(i + width) {
                guard isDigit(b[k]) else { return nil }
                value = value * 10 + Int(b[k] - 0x30)
            }
            i += width
            return value
        }
        func take(_ c: Character) -> Bool {
            guard i < b.count, b[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2) else { return nil }
        var hour = 0, minute = 0, second = 0.0, offset = 0
        if i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == 0x20 {
            i += 1
            guard let h = number(2), take(":"), let m = number(2) else { return nil }
            hour = h
            minute = m
            if take(":") {
                guard let s = number(2) else { return nil }
                second = Double(s)
                if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                    i += 1
                    var scale = 0.1
                    while i < b.count, isDigit(b[i]) {
                        second += Double(b[i] - 0x30) * scale
                        scale /= 10
                        i += 1
                    }
                }
            }
            while i < b.count, b[i] == 0x20 { i += 1 }
            if i < b.count {
                if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
                    i += 1
                } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                    let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
                    i += 1
                    guard let oh = number(2) else { return nil }
                    _ = take(":")
                    let om = number(2) ?? 0
                    offset = sign * (oh * 3600 + om * 60)
                }
            }
        }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    static func rfc822(_ b: [UInt8]) -> Date? {
        // Tokens: runs of letters, runs of digits (with ':' inside a time), a sign with digits.
        var day: Int?, month: Int?, year: Int?, time: (Int, Int, Double)?, offset: Int?
        var pm: Bool?
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "(") {  // a comment: "(UTC)", "(Eastern Standard Time)"
                while i < b.count, b[i] != UInt8(ascii: ")") { i += 1 }
                i += 1
                continue
            }
            if isLetter(c) {
                var j = i
                while j < b.count, isLetter(b[j]) || b[j] == UInt8(ascii: ".") { j += 1 }
                let word = String(decoding: b[i..<j], as: UTF8.self).lowercased().replacingOccurrences(of: ".", with: "")
                i = j
                if let m = monthNumber(word) {
                    if month == nil { month = m }
                } else if word == "am" || word == "pm" {
                    pm = word == "pm"
                } else if let z = zoneOffset(word) {
                    if offset == nil { offset = z }
                }  // a weekday, "at", or another word: ignored
                continue
            }
            if (c == UInt8(ascii: "+") || c == UInt8(ascii: "-")), i + 1 < b.count, isDigit(b[i + 1]), time != nil || year != nil {
                let sign = c == UInt8(ascii: "-") ? -1 : 1
                var j = i + 1
                var digits: [Int] = []
                while j < b.count, isDigit(b[j]) || b[j] == UInt8(ascii: ":") {
                    if isDigit(b[j]) { digits.append(Int(b[j] - 0x30)) }
                    j += 1
                }
                i = j
                let hours: Int, minutes: Int
                switch digits.count {
                case 1, 2: (hours, minutes) = (digits.reduce(0) { $0 * 10 + $1 }, 0)
                case 3: (hours, minutes) = (digits[0], digits[1] * 10 + digits[2])
                case 4: (hours, minutes) = (digits[0] * 10 + digits[1], digits[2] * 10 + digits[3])
                default: continue
                }
                guard hours <= 14, minutes < 60 else { continue }
                if offset == nil || offset == 0 { offset = sign * (hours * 3600 + minutes * 60) }
                continue
            }
            if isDigit(c) {
                var j = i
                var parts: [Int] = [0]
                var digitsInPart = 0
                var fraction = 0.0
                while j < b.count, isDigit(b[j]) || b[j] == UInt8(ascii: ":") {
                    if b[j] == UInt8(ascii: ":") {
                        parts.append(0)
                        digitsInPart = 0
                    } else if digitsInPart < 6 {
                        parts[parts.count - 1] = parts[parts.count - 1] * 10 + Int(b[j] - 0x30)
                        digitsInPart += 1
                    }
                    j += 1
                }
                let width = j - i
                if parts.count > 1, j < b.count, b[j] == UInt8(ascii: "."), j + 1 < b.count, isDigit(b[j + 1]) {
                    j += 1
                    var scale = 0.1
                    while j < b.count, isDigit(b[j]) {
                        fraction += Double(b[j] - 0x30) * scale
                        scale /= 10
                        j += 1
                    }
                }
                i = j
                if parts.count >= 2 {
                    if time == nil { time = (parts[0], parts[1], Double(parts.count > 2 ? parts[2] : 0) + fraction) }
                } else if width == 4 {
                    if year == nil { year = parts[0] }
                } else if width <= 2, day == nil {
                    day = parts[0]
                } else if width <= 2, year == nil {
                    year = parts[0] < 50 ? 2000 + parts[0] : 1900 + parts[0]
                }
                continue
            }
            i += 1  // commas, spaces, '-' or '/' between the date's parts
        }
        guard let day, let month, let year else { return nil }
        var (hour, minute, second) = time ?? (0, 0, 0)
        if let pm {
            guard hour >= 1, hour <= 12 else { return nil }
            hour = hour % 12 + (pm ? 12 : 0)
        }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset ?? 0)
    }

    static func make(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double, offset: Int) -> Date? {
        guard (1..<10000).contains(year), (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour),
            (0...59).contains(minute), second >= 0, second < 61
        else { return nil }
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 - offset) + min(second, 59.999)
        return Date(timeIntervalSince1970: seconds)
    }

    static func monthNumber(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let full = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december"]
        if let k = months.firstIndex(of: word) { return k + 1 }
        if word == "sept" { return 9 }
        if let k = full.firstIndex(of: word) { return k + 1 }
        return nil
    }

    /// RFC 822's zone names and the common US ones; single military letters are too ambiguous (and
    /// RFC 1123 says to treat them as UTC): UTC.
    static func zoneOffset(_ word: String) -> Int? {
        switch word {
        case "gmt", "ut", "utc", "z", "wet": 0
        case "bst", "cet", "wat": 3600
        case "cest", "eet": 7200
        case "eest", "msk": 10800
        case "est": -5 * 3600
        case "edt": -4 * 3600
        case "cst": -6 * 3600
        case "cdt": -5 * 3600
        case "mst": -7 * 3600
        case "mdt": -6 * 3600
        case "pst": -8 * 3600
        case "pdt": -7 * 3600
        case "akst": -9 * 3600
        case "akdt": -8 * 3600
        case "hst": -10 * 3600
        case "jst": 9 * 3600
        case "aest": 10 * 3600
        case "aedt": 11 * 3600
        default: word.count == 1 ? 0 : nil
        }
    }

    /// `itunes:duration`: seconds (`3600`, `3600.5`), `MM:SS` or `HH:MM:SS` (each part may overflow, as
    /// `90:00`). Nil for anything else (empty, negative, words).
    public static func duration(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 32 else { return nil }
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 3 else { return nil }
        var total = 0.0
        for (k, part) in parts.enumerated() {
            let last = k == parts.count - 1
            guard !part.isEmpty, part.utf8.allSatisfy({ isDigit($0) || (last && $0 == UInt8(ascii: ".")) }),
                let value = Double(part), value.isFinite
            else { return nil }
            total = total * 60 + value
        }
        return total
    }
}

@inline(__always) func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
@inline(__always) func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
