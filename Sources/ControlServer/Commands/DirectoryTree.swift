import Library

/// Directories as MPD shows them, derived from the songs' paths (the library stores songs, not folders).
/// Listings stream them (`DirectoryStream`); this holds what the stream and `lsinfo` share.
enum DirectoryTree {
    enum Entry {
        case directory(String, modified: Int64)
        case song(SongRecord)
    }

    /// The folder holding `path` ("" for the music folder).
    static func parent(of path: String) -> String {
        // By bytes: a `/` is always a character of its own, and the characters' search is several times slower.
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    /// Every folder's immediate subfolders with the newest song's time below each, in the order the
    /// listings give them (their songs' path order), worked out once for the whole library: `lsinfo`
    /// asks for one folder at a time, and the library's songs are kept in memory until it changes, so
    /// this is too.
    struct Folders: Sendable {
        /// A folder's subfolders with their newest times, in listing order ("" is the music folder).
        let children: [String: [(path: String, modified: Int64)]]
        /// The folders that hold songs directly, with their songs' newest times.
        let times: [String: Int64]

        /// `runs`: `Catalog.folderRuns` of the whole library (folders merged by name, as `lsinfo` shows them).
        init(runs: [(folder: String, newest: Int64)]) {
            let times = Dictionary(runs.map { ($0.folder, $0.newest) }, uniquingKeysWith: max)
            var newest: [String: [String: Int64]] = [:]
            for (folder, time) in times {
                var child = folder
                while !child.isEmpty {
                    let parent = DirectoryTree.parent(of: child)
                    newest[parent, default: [:]][child] = max(newest[parent]?[child] ?? .min, time)
                    child = parent
                }
            }
            children = newest.mapValues { below in
                below.map { (path: $0.key, modified: $0.value) }
                    .sorted { ($0.path + "/").utf8.lexicographicallyPrecedes(($1.path + "/").utf8) }
            }
            self.times = times
        }

        /// Whether anything below `folder` (or in it) holds songs.
        func exists(_ folder: String) -> Bool { times[folder] != nil || children[folder] != nil }
    }
}
