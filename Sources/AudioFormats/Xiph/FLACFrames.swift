/// The exact length of a FLAC stream whose `STREAMINFO` does not say it (total samples 0: a stream encoded
/// through a pipe, which cannot go back to write the total), found from two frame headers instead of
/// decoding the frames: the first frame's (where the audio starts) and the last frame's, found by searching
/// backwards from the end of the file. A frame header says where its block starts (its sample number, or
/// its frame number times the stream's fixed block size) and how many samples the block holds, so the
/// length is the last block's end less the first block's start, exactly what a decoder yields.
///
/// The last frame is the one whose header checks (sync code, no reserved values, its CRC-8) and whose bytes
/// up to the end of the file (less an ID3v1 tag there) carry a matching CRC-16: a false sync code inside
/// the audio passes both only by chance of one in 2^24. Called from any thread; it holds no state.
enum FLACFrames {
    /// The first tail read (from a page boundary, so up to a page more); a file whose last frame is longer
    /// is read further back in growing steps, each from a page boundary too: a read covers whole pages of
    /// the page cache, the last frame's and few more.
    static let firstWindow = 4 << 10
    /// How far back the last frame is looked for: FLAC's longest frame (65535 samples of 8 channels of 32
    /// bits, uncompressed) is 2 MiB.
    static let limit = 2 << 20 + 64
    /// The most candidate headers whose frame CRC-16 is computed (each costs up to `limit` bytes of work).
    static let maxChecks = 64

    /// One frame header's facts.
    struct Header: Equatable {
        /// Variable block size: `number` is the first sample's number; fixed: the frame's number.
        var variable: Bool
        var number: Int64
        var blockSize: Int
    }

    /// The stream's length in samples per channel, from the frames at `audioStart` and at the end; nil when
    /// either header is not found. `nominalBlock` is `STREAMINFO`'s maximum block size, used for a
    /// fixed-block stream of one frame only (its first frame is then also its last, shorter one).
    static func length(_ source: some ByteSource, audioStart: Int, nominalBlock: Int) throws(FormatError) -> Int64? {
        guard audioStart < source.size, let first = header(try source.read(at: audioStart, count: 16)[...]),
            let last = try lastFrame(source, floor: audioStart)
        else { return nil }
        guard first.variable == last.header.variable else { return nil }
        let start: Int64
        let end: Int64
        if first.variable {
            start = first.number
            end = last.header.number + Int64(last.header.blockSize)
        } else {
            // Every block of a fixed-block stream but the last has the first block's size (a one-frame
            // stream's only block is also its last: STREAMINFO's size then numbers nothing but frame 0).
            let block = Int64(last.offset == audioStart ? max(nominalBlock, 1) : first.blockSize)
            start = first.number * block
            end = last.header.number * block + Int64(last.header.blockSize)
        }
        return end > start ? end - start : nil
    }

    /// The last frame's header and where it starts, searched backwards from the end of the file.
    static func lastFrame(_ source: some ByteSource, floor: Int) throws(FormatError) -> (header: Header, offset: Int)? {
        var end = source.size
        if end - 128 > floor, try source.read(at: end - 128, count: 3) == Array("TAG".utf8) { end -= 128 }
        var window = firstWindow
        var searched = end  // candidates at or past this were checked in a smaller window
        var checks = 0
        while true {
            let start = max(floor, (end - window) / FilePages.size * FilePages.size)
            let bytes = try source.read(at: start, count: end - start)
            guard bytes.count == end - start, bytes.count >= 4 else { return nil }
            let storedCRC = UInt16(bytes[bytes.count - 2]) << 8 | UInt16(bytes[bytes.count - 1])
            var i = min(searched - start - 1, bytes.count - 2)
            while i >= 0 {
                if bytes[i] == 0xFF, bytes[i + 1] & 0xFE == 0xF8, let h = header(bytes[i...]) {
                    checks += 1
                    if crc16(bytes[i..<bytes.count - 2]) == storedCRC { return (h, start + i) }
                    if checks >= maxChecks { return nil }
                }
                i -= 1
            }
            searched = start
            guard start > floor, window < limit else { return nil }
            window = min(window * 4, limit)
        }
    }

    /// The frame header at the start of `bytes` when it is one (RFC 9639 §9.1): sync code, block size,
    /// rate, channels and sample size codes that are not reserved, the coded number, and its CRC-8.
    static func header(_ bytes: ArraySlice<UInt8>) -> Header? {
        let b = Array(bytes.prefix(16))
        guard b.count >= 6, b[0] == 0xFF, b[1] & 0xFE == 0xF8 else { return nil }
        let variable = b[1] & 1 == 1
        let blockCode = Int(b[2] >> 4)
        let rateCode = Int(b[2] & 0x0F)
        let channelCode = Int(b[3] >> 4)
        let sizeCode = Int(b[3] >> 1 & 0x07)
        guard blockCode != 0, rateCode != 15, channelCode <= 10, sizeCode != 3, b[3] & 1 == 0 else { return nil }
        // The coded number: UTF-8's scheme stretched to 36 bits (7 bytes at most, 6 for a frame number).
        let lead = b[4]
        let extra: Int
        var number: Int64
        switch lead {
        case 0x00..<0x80: (extra, number) = (0, Int64(lead))
        case 0xC0..<0xE0: (extra, number) = (1, Int64(lead & 0x1F))
        case 0xE0..<0xF0: (extra, number) = (2, Int64(lead & 0x0F))
        case 0xF0..<0xF8: (extra, number) = (3, Int64(lead & 0x07))
        case 0xF8..<0xFC: (extra, number) = (4, Int64(lead & 0x03))
        case 0xFC..<0xFE: (extra, number) = (5, Int64(lead & 0x01))
        case 0xFE where variable: (extra, number) = (6, 0)
        default: return nil
        }
        var at = 5
        for _ in 0..<extra {
            guard at < b.count, b[at] & 0xC0 == 0x80 else { return nil }
            number = number << 6 | Int64(b[at] & 0x3F)
            at += 1
        }
        let blockSize: Int
        switch blockCode {
        case 1: blockSize = 192
        case 2...5: blockSize = 576 << (blockCode - 2)
        case 6, 7:
            let count = blockCode - 5
            guard at + count <= b.count else { return nil }
            blockSize = b[at..<at + count].reduce(0) { $0 << 8 | Int($1) } + 1
            at += count
        default: blockSize = 1 << blockCode
        }
        switch rateCode {
        case 12: at += 1
        case 13, 14: at += 2
        default: break
        }
        guard at < b.count, crc8(b[..<at]) == b[at] else { return nil }
        return Header(variable: variable, number: number, blockSize: blockSize)
    }

    /// FLAC's header CRC-8 (polynomial x^8 + x^2 + x + 1, initial 0).
    static func crc8(_ bytes: ArraySlice<UInt8>) -> UInt8 {
        var crc: UInt8 = 0
        for byte in bytes {
            crc ^= byte
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? crc << 1 ^ 0x07 : crc << 1 }
        }
        return crc
    }

    /// FLAC's frame CRC-16 (polynomial x^16 + x^15 + x^2 + 1, initial 0, most significant bit first).
    static func crc16(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes { crc = crc << 8 ^ crc16Table[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)] }
        return crc
    }

    static let crc16Table: [UInt16] = (0..<256).map { (n: UInt16) in
        var r = n << 8
        for _ in 0..<8 { r = r & 0x8000 != 0 ? r << 1 ^ 0x8005 : r << 1 }
        return r
    }
}
