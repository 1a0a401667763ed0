/// Bounds-checked reading of hostile bytes: every read that would run past the end returns nil
/// instead of trapping, so a lying length field ends one parse, never the process.
public struct ByteCursor {
    public let bytes: ArraySlice<UInt8>
    /// The absolute index into `bytes` of the next read.
    public private(set) var position: Int

    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    public init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// Bytes left to read.
    public var remaining: Int { bytes.endIndex - position }
    public var isAtEnd: Bool { position >= bytes.endIndex }

    /// Skips `n` bytes; false (and nothing skipped) when fewer remain.
    @discardableResult
    public mutating func skip(_ n: Int) -> Bool {
        guard n >= 0, n <= remaining else { return false }
        position += n
        return true
    }

    public mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next `n` bytes, or nil when fewer remain.
    public mutating func take(_ n: Int) -> ArraySlice<UInt8>? {
        guard n >= 0, n <= remaining else { return nil }
        defer { position += n }
        return bytes[position..<position + n]
    }

    public mutating func u16be() -> UInt16? { uint(2, bigEndian: true).map { UInt16($0) } }
    public mutating func u16le() -> UInt16? { uint(2, bigEndian: false).map { UInt16($0) } }
    public mutating func u24be() -> UInt32? { uint(3, bigEndian: true).map { UInt32($0) } }
    public mutating func u32be() -> UInt32? { uint(4, bigEndian: true).map { UInt32($0) } }
    public mutating func u32le() -> UInt32? { uint(4, bigEndian: false).map { UInt32($0) } }
    public mutating func u64be() -> UInt64? { uint(8, bigEndian: true) }
    public mutating func u64le() -> UInt64? { uint(8, bigEndian: false) }

    /// An unsigned integer of `width` bytes (1…8).
    public mutating func uint(_ width: Int, bigEndian: Bool) -> UInt64? {
        guard width >= 1, width <= 8, remaining >= width else { return nil }
        var v: UInt64 = 0
        for i in 0..<width {
            let b = UInt64(bytes[position + (bigEndian ? i : width - 1 - i)])
            v = v << 8 | b
        }
        position += width
        return v
    }
}
