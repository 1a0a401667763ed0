/// A file path as raw bytes, hashed in one pass: an `[UInt8]` key hashes byte by byte, and a no-change
/// rescan hashes every path of the library, so the hashing is most of its work.
struct RawPath: Hashable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: RawPath, b: RawPath) -> Bool { a.bytes == b.bytes }
}
