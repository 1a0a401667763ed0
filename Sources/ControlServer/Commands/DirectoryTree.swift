import Library

import Library

/// Directories as MPD shows them, derived from the songs' paths (the library stores songs, not folders).
/// Listings stream them (`DirectoryStream`); this holds what the stream and `lsinfo` share.
enum DirectoryTree {
    enum Entry {
        case directory(String, modified: Int64)
        case song(SongRecord)
    }

    /// The immediate subdirectories of `base` and their newest times, in the order the tree lists them
    /// (their songs' path order), from the folders' times (`Catalog.folderRuns`, merged by name) alone.
    static func subdirectories(of base: String, folders: [String: Int64]) -> [(path: String, modified: Int64)] {
        let prefix = base.isEmpty ? "" : base + "/"
        var newest: [String: Int64] = [:]
        for (folder, time) in folders where folder.utf8.count > prefix.utf8.count {
            let rest = folder.utf8.dropFirst(prefix.utf8.count)
            let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let dir = String(folder[..<end])
            newest[dir] = max(newest[dir] ?? .min, time)
        }
        // A folder's songs all start with its path and '/': that decides where it comes.
        return newest.map { (path: $0.key, modified: $0.value) }
            .sorted { ($0.path + "/").utf8.lexicographicallyPrecedes(($1.path + "/").utf8) }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}
