import Library

/// Directories as MPD shows them, derived from the songs' paths (the library stores songs, not folders).
struct DirectoryTree {
    struct Directory {
        var path: String
        /// The newest song's modification time inside it (Unix seconds).
        var modified: Int64
    }

    var subdirectories: [Directory] = []
    var files: [SongRecord] = []

    /// The immediate subdirectories and files of `base` among `songs` (all under `base`, path order).
    init(_ songs: [SongRecord], base: String) {
        let prefix = base.isEmpty ? "" : base + "/"
        var index: [String: Int] = [:]
        for song in songs {
            let rest = song.path.dropFirst(prefix.count)
            if let slash = rest.firstIndex(of: "/") {
                let dir = prefix + rest[..<slash]
                if let i = index[dir] {
                    subdirectories[i].modified = max(subdirectories[i].modified, song.modified)
                } else {
                    index[dir] = subdirectories.count
                    subdirectories.append(Directory(path: dir, modified: song.modified))
                }
            } else {
                files.append(song)
            }
        }
    }

    enum Entry {
        case directory(String, modified: Int64)
        case song(SongRecord)
    }

    /// Every directory (before its contents) and song below `base`, depth first, as `listall` lists them.
    static func walk(_ songs: [SongRecord], base: String, _ visit: (Entry) -> Void) {
        let tree = DirectoryTree(songs, base: base)
        let prefixLength = base.isEmpty ? 0 : base.count + 1
        for dir in tree.subdirectories {
            visit(.directory(dir.path, modified: dir.modified))
            let inside = songs.filter { $0.path.hasPrefix(dir.path + "/") }
            _ = prefixLength
            walk(inside, base: dir.path, visit)
        }
        for song in tree.files { visit(.song(song)) }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}
