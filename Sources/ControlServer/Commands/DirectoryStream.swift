import Foundation
import Library

/// MPD's listing order, made from songs arriving one at a time in path order (a database cursor)
/// instead of a whole array (the tests keep that whole-array walk as the reference): every
/// directory (before its contents, with the newest song's time below it) and song below `base`,
/// depth first, a directory's own songs after its subdirectories.
///
/// What it holds: the folders' times (one entry per folder, from `Catalog.forEachSong`), the stack
/// of directories open now, and the songs of an open directory that also has subdirectories (they
/// wait until its subdirectories are done). A song in a folder without subfolders, the usual album
/// folder, goes out at once.
struct DirectoryStream {
    private let base: String
    /// Every directory strictly below `base` that holds songs somewhere beneath: its newest time.
    private var modified: [Substring: Int64] = [:]
    /// Directories (`base` included) with a subdirectory below `base`.
    private var hasSubdirectories: Set<Substring> = []
    /// The directories open now, `base` first; each with its songs that wait for its subdirectories
    /// (as records, or as their lines already written: `place`).
    private var open: [(path: Substring, waiting: [SongRecord], held: [UInt8])]
    /// The previous song's folder, and whether its songs wait for its subdirectories.
    private var lastFolderBytes: [UInt8]?
    private var lastWaits = false

    /// `folders`: the songs' folders and their newest times (`Catalog.forEachSong`), all under `base`.
    init(base: String, folders: [String: Int64]) {
        self.init(base: base, runs: folders.map { (folder: $0.key, newest: $0.value) })
    }

    /// `runs`: the songs' folders and their newest times, a folder possibly more than once
    /// (`Catalog.forEachListedSong`), all under `base`.
    init(base: String, runs: [(folder: String, newest: Int64)]) {
        self.base = base
        open = [(base[...], [], [])]
        for (folder, time) in runs {
            var dir = folder[...]
            while dir.utf8.count > base.utf8.count {
                // A directory seen before already counts in its parents (their times are at least its
                // own, their subdirectory marks are set): climb only while the time raises it.
                let parent = Self.parent(of: dir)
                if let known = modified[dir] {
                    if known >= time { break }
                    modified[dir] = time
                } else {
                    modified[dir] = time
                    hasSubdirectories.insert(parent)
                }
                dir = parent
            }
        }
    }

    /// What `place` and `finish` give out, in order: a directory's line, a song that waited (`add`),
    /// or the lines of songs that waited (`hold`).
    enum Output {
        case directory(String, modified: Int64)
        case song(SongRecord)
        case held([UInt8])
    }

    /// Takes the next song (path order); `visit` gets what can be written now.
    mutating func add(_ song: SongRecord, _ visit: (DirectoryTree.Entry) -> Void) {
        var path = song.path
        let waits = path.withUTF8 { place(path: $0) { Self.forward($0, visit) } }
        if waits { open[open.count - 1].waiting.append(song) } else { visit(.song(song)) }
    }

    private static func forward(_ output: Output, _ visit: (DirectoryTree.Entry) -> Void) {
        switch output {
        case .directory(let path, let modified): visit(.directory(path, modified: modified))
        case .song(let song): visit(.song(song))
        case .held: break
        }
    }

    /// Takes the next song's path (UTF-8, path order): opens and closes directories through `visit`,
    /// and says whether the song waits for its folder's subdirectories (then its lines go to `hold`).
    mutating func place(path: UnsafeBufferPointer<UInt8>, _ visit: (Output) -> Void) -> Bool {
        let folderBytes = path[..<(path.lastIndex(of: UInt8(ascii: "/")) ?? 0)]
        // Most songs are in the previous song's folder: nothing opens or closes.
        if let last = lastFolderBytes, last.count == folderBytes.count,
            last.isEmpty || last.withUnsafeBufferPointer({ memcmp($0.baseAddress!, path.baseAddress!, last.count) == 0 })
        {
            return lastWaits
        }
        let folder = String(decoding: folderBytes, as: UTF8.self)[...]
        lastFolderBytes = Array(folderBytes)
        lastWaits = hasSubdirectories.contains(folder)
        // Close what the song is not in.
        while open.count > 1, !Self.isWithin(folder, open[open.count - 1].path) {
            close(visit)
        }
        // Open the directories between the innermost one and the song's folder.
        let top = open[open.count - 1].path
        if folder.utf8.count > top.utf8.count {
            var starts: [Substring] = []
            var dir = folder
            while dir.utf8.count > top.utf8.count {
                starts.append(dir)
                dir = Self.parent(of: dir)
            }
            for dir in starts.reversed() {
                visit(.directory(String(dir), modified: modified[dir] ?? 0))
                open.append((dir, [], []))
            }
        }
        return lastWaits
    }

    /// Lets `body` append the lines of a song that waits (`place` said so) to its folder's.
    mutating func hold(_ body: (inout [UInt8]) -> Void) {
        body(&open[open.count - 1].held)
    }

    /// Closes every directory still open (after the last song).
    mutating func finish(_ visit: (DirectoryTree.Entry) -> Void) {
        finish { Self.forward($0, visit) }
    }

    /// Closes every directory still open (after the last song placed).
    mutating func finish(_ visit: (Output) -> Void) {
        while !open.isEmpty { close(visit) }
    }

    private mutating func close(_ visit: (Output) -> Void) {
        let last = open.removeLast()
        for song in last.waiting { visit(.song(song)) }
        if !last.held.isEmpty { visit(.held(last.held)) }
    }

    /// Whether `path` is `dir` or below it.
    private static func isWithin(_ path: Substring, _ dir: Substring) -> Bool {
        if dir.isEmpty { return true }
        guard path.utf8.starts(with: dir.utf8) else { return false }
        return path.utf8.count == dir.utf8.count
            || path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: dir.utf8.count)] == UInt8(ascii: "/")
    }

    private static func parent(of path: Substring) -> Substring {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path[path.startIndex..<path.startIndex] }
        return path[..<slash]
    }
}
