import Library

/// Directories as MPD shows them, derived from the songs' paths (the library stores songs, not folders).
///
/// Songs come in path order, so the songs below one directory are one contiguous run: every level is
/// one pass over its own slice, and `walk` visits each song once per level at most.
struct DirectoryTree {
    struct Directory {
        var path: String
        /// The newest song's modification time inside it (Unix seconds).
        var modified: Int64
        /// Where its songs are in the slice the tree was made from.
        var songs: Range<Int>
    }

    var subdirectories: [Directory] = []
    var files: [SongRecord] = []

    /// The immediate subdirectories and files of `base` among `songs` (all under `base`, path order).
    init(_ songs: ArraySlice<SongRecord>, base: String) {
        let prefix = base.isEmpty ? "" : base + "/"
        for i in songs.indices {
            let song = songs[i]
            let rest = song.path.dropFirst(prefix.count)
            guard let slash = rest.firstIndex(of: "/") else {
                files.append(song)
                continue
            }
            let dir = prefix + rest[..<slash]
            if let last = subdirectories.last, last.path == dir {
                subdirectories[subdirectories.count - 1].modified = max(last.modified, song.modified)
                subdirectories[subdirectories.count - 1].songs = last.songs.lowerBound..<(i + 1)
            } else {
                subdirectories.append(Directory(path: dir, modified: song.modified, songs: i..<(i + 1)))
            }
        }
    }

    init(_ songs: [SongRecord], base: String) { self.init(songs[...], base: base) }

    enum Entry {
        case directory(String, modified: Int64)
        case song(SongRecord)
    }

    /// Every directory (before its contents) and song below `base`, depth first, as `listall` lists them.
    static func walk(_ songs: [SongRecord], base: String, _ visit: (Entry) -> Void) {
        walk(songs[...], base: base, visit)
    }

    private static func walk(_ songs: ArraySlice<SongRecord>, base: String, _ visit: (Entry) -> Void) {
        let tree = DirectoryTree(songs, base: base)
        for dir in tree.subdirectories {
            visit(.directory(dir.path, modified: dir.modified))
            walk(songs[dir.songs], base: dir.path, visit)
        }
        for song in tree.files { visit(.song(song)) }
    }

    /// The immediate subdirectories of `base` and their newest times, in the order the tree lists them
    /// (their songs' path order), from the folders' times (`Catalog.folderTimes`) alone.
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
