import Foundation

/// Reads an `.m3u`/`.m3u8` playlist's bytes into its entries (pure: bytes in, paths out; the indexer
/// reads the file, fuzz target 3 feeds it bytes).
///
/// Entries are resolved against the playlist's folder (or the music folder for absolute paths inside
/// it); Windows backslashes are turned into slashes; `.m3u` files that are not valid UTF-8 are read as
/// Latin-1/CP1252; comments (`#EXTINF` …) and streams (`http://` …) are skipped.
enum M3UReader {
    /// The entries of the playlist file `playlistPath` (relative to the music folder `root`), read from
    /// its bytes, as paths relative to the music folder.
    static func entries(_ bytes: [UInt8], playlistPath: String, root: String = "") -> [String] {
        var text = String(validating: bytes, as: UTF8.self) ?? TextDecoding.id3v1(bytes)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let folder = playlistPath.split(separator: "/").dropLast().map(String.init)
        var out: [String] = []
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            var line = String(rawLine).trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            // By scalar: Foundation's replace compares Characters, and a backslash with a combining mark
            // after it is one (fuzz target 3).
            line = String(String.UnicodeScalarView(line.unicodeScalars.map { $0 == "\\" ? "/" : $0 }))
            if line.hasPrefix("file://") { line = String(line.dropFirst(7)).removingPercentEncoding ?? line }
            if line.contains("://") { continue }  // streams are not part of the library
            // An absolute path inside the music folder is relative to the music folder, not to the playlist's.
            let absolute = line.unicodeScalars.first == "/"
            if !root.isEmpty, line.hasPrefix(root + "/") { line = String(line.dropFirst(root.count + 1)) }
            // Components by scalar, not by Character: a slash or a dot with a combining mark after it is
            // one Character, and would hide a `..` (or a slash) inside a component.
            let scalars = line.unicodeScalars
            var parts: [String] = absolute ? [] : folder
            for c in scalars.split(separator: "/") {
                if c.elementsEqual(["."]) { continue }
                if c.elementsEqual([".", "."]) { if !parts.isEmpty { parts.removeLast() }; continue }
                parts.append(String(String.UnicodeScalarView(c)))
            }
            out.append(parts.joined(separator: "/"))
        }
        return out
    }
}
