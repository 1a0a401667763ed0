/// One Ogg page's header (RFC 3533): flags, granule position, stream serial, sequence number, checksum
/// and the segment table whose lacing values give the body's length and where its packets end.
struct OggPage {
    static let capture: [UInt8] = Array("OggS".utf8)
    /// The fixed part of a header, before the segment table.
    static let fixedHeader = 27
    /// The longest page there can be: a full segment table and 255 segments of 255 bytes.
    static let maxLength = fixedHeader + 255 + 255 * 255

    var flags: UInt8
    /// The granule position: for audio codecs, the sample count at the end of the last packet finished
    /// on this page; -1 when none finishes on it.
    var granule: Int64
    var serial: UInt32
    var sequence: UInt32
    var checksum: UInt32
    var lacing: [UInt8]
    var bodyLength: Int

    var headerLength: Int { Self.fixedHeader + lacing.count }
    var length: Int { headerLength + bodyLength }
    /// The page's first packet continues one begun on an earlier page.
    var isContinued: Bool { flags & 0x01 != 0 }
    /// The first page of a logical stream (beginning of stream).
    var isFirst: Bool { flags & 0x02 != 0 }
    var isLast: Bool { flags & 0x04 != 0 }

    /// The header at the start of `bytes`, or nil when they do not start with a version-0 page header or
    /// end inside it.
    init?(_ bytes: ArraySlice<UInt8>) {
        var c = ByteCursor(bytes)
        guard let capture = c.take(4), capture.elementsEqual(Self.capture), c.u8() == 0, let flags = c.u8(),
            let granule = c.u64le(), let serial = c.u32le(), let sequence = c.u32le(), let checksum = c.u32le(),
            let count = c.u8(), let lacing = c.take(Int(count))
        else { return nil }
        self.flags = flags
        self.granule = Int64(bitPattern: granule)
        self.serial = serial
        self.sequence = sequence
        self.checksum = checksum
        self.lacing = Array(lacing)
        bodyLength = lacing.reduce(0) { $0 + Int($1) }
    }

    /// Whether the whole page (header and body, as in `bytes`) has the checksum its header claims: libogg's
    /// CRC-32 (polynomial 0x04c11db7, no reflection, initial 0, no final xor) with the checksum field as zeros.
    func checksumMatches(_ page: ArraySlice<UInt8>) -> Bool {
        guard page.count == length else { return false }
        var crc: UInt32 = 0
        for (i, byte) in zip(0..., page) {
            let value = (22..<26).contains(i) ? 0 : byte
            crc = crc << 8 ^ OggCRC.table[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ value)]
        }
        return crc == checksum
    }
}

/// libogg's CRC-32 lookup table (polynomial 0x04c11db7, most significant bit first).
enum OggCRC {
    static let table: [UInt32] = (0..<256).map { (n: UInt32) in
        var r = n << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? r << 1 ^ 0x04C1_1DB7 : r << 1 }
        return r
    }
}
