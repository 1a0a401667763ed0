/// Random access to the bytes of one audio file: what every format reader reads through.
///
/// The readers ask only for the ranges they need (the cold-index rule: tags, headers, an MP4's `moov`
/// wherever it lies, an Ogg stream's last page), never the whole file. The library's scanner passes
/// its `pread`-backed reader; tests and fuzz targets pass `MemorySource`.
public protocol ByteSource {
    /// The file's size in bytes.
    var size: Int { get }
    /// Up to `count` bytes at `offset`; fewer only at the end of the file, empty past it.
    func read(at offset: Int, count: Int) throws(FormatError) -> [UInt8]
}

/// A whole file in memory (tests, fuzzing).
public struct MemorySource: ByteSource {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var size: Int { bytes.count }

    public func read(at offset: Int, count: Int) throws(FormatError) -> [UInt8] {
        guard offset >= 0, count > 0, offset < bytes.count else { return [] }
        return Array(bytes[offset..<min(bytes.count, offset + min(count, bytes.count - offset))])
    }
}

/// Why a file could not be read as the format it claims: a clear reason for `index --report`.
public struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable keyword: `io` (the read failed), `not-audio` (not this format at all), `damaged`
    /// (this format, but broken where it matters), `unsupported` (a codec or variant not played).
    public var kind: String
    /// One line for a person.
    public var reason: String

    public init(_ kind: String, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }
}

/// The page cache's unit, which a read brings in whole: the readers end their reads at a page boundary
/// where they may choose, so a read touches no page it does not need and leaves none half-used.
enum FilePages {
    static let size = 4096

    /// How many bytes from `offset` reach the first page boundary at or after `offset + atLeast`.
    static func countToBoundary(from offset: Int, atLeast: Int) -> Int {
        let end = offset + max(atLeast, 1)
        return (end + size - 1) / size * size - offset
    }
}
