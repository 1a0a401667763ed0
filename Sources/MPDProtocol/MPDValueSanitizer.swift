/// Makes outgoing values safe to put on one response line.
///
/// A value may come from a file name or a tag, so it can hold anything. A newline in it would let
/// a file name inject protocol lines, and invalid UTF-8 breaks clients that decode strictly
/// (python-mpd2). Control bytes 0x00...0x1F become a space, as MPD's tag sanitiser does; invalid
/// UTF-8 sequences become U+FFFD, the project's convention for undecodable file names.
public enum MPDValueSanitizer {
    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// Appends `value` to `output`, sanitised.
    public static func append(_ value: String, to output: inout [UInt8]) {
        var value = value
        value.withUTF8 { utf8 in
            if utf8.allSatisfy({ $0 >= 0x20 }) {
                output.append(contentsOf: utf8)
            } else {
                output.append(contentsOf: utf8.lazy.map { $0 < 0x20 ? UInt8(ascii: " ") : $0 })
            }
        }
    }

    /// Appends raw `bytes` to `output`: invalid UTF-8 replaced, control bytes turned into spaces.
    public static func append(bytes: some Collection<UInt8>, to output: inout [UInt8]) {
        let bytes = Array(bytes)
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x80 }) {
            output.append(contentsOf: bytes)
            return
        }
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length == 0 {
                output.append(contentsOf: replacement)
                index += 1
            } else {
                let byte = bytes[index]
                if length == 1 && byte < 0x20 {
                    output.append(UInt8(ascii: " "))
                } else {
                    output.append(contentsOf: bytes[index..<index + length])
                }
                index += length
            }
        }
    }

    /// Returns `value` sanitised, as a string (for messages).
    public static func sanitized(_ value: String) -> String {
        var output: [UInt8] = []
        append(value, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `bytes` is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF): the
    /// listing's fast path copies such a value as it is.
    @inlinable
    public static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            let length = validSequenceLength(bytes, at: index)
            if length == 0 { return false }
            index += length
        }
        return true
    }

    /// Length of the valid UTF-8 sequence starting at `index`, or 0 if it is invalid there.
    @inlinable
    static func validSequenceLength<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at index: Int) -> Int
    where Bytes.Index == Int {
        let lead = bytes[index]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upperBound = 0x9F
        case 0xF0: length = 4; lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upperBound = 0x8F
        default: return 0
        }
        guard index + length <= bytes.endIndex else { return 0 }
        let second = bytes[index + 1]
        guard second >= lowerBound && second <= upperBound else { return 0 }
        for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 {
            return 0
        }
        return length
    }
}
