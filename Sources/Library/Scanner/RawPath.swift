/// A file path as raw bytes, hashed in one pass (an `[UInt8]` key hashes byte by byte, which dominated
/// a no-change rescan of 10,000 files).
struct RawPath: Hashable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: RawPath, b: RawPath) -> Bool { a.bytes == b.bytes }
}
