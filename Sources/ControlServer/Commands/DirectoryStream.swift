import Foundation
import Library
import MPDProtocol

/// MPD's listing order, made from songs arriving one at a time in path order (the answer goes out as
/// it is made; the tests keep a whole-array walk as the reference): every directory (before its
/// contents, with the newest song's time below it) and song below `base`, depth first, a directory's
/// own songs after its subdirectories.
///
/// What it holds: the folders' times (from `Catalog.folderRuns`), the stack of directories open
/// now, and the songs of an open directory that also has subdirectories (they wait until its
/// subdirectories are done). A song in a folder without subfolders, the usual album
/// folder, goes out at once.
///
/// Folders are told apart by their UTF-8 bytes (`Folder`), not as strings: String's hashing and
/// equality normalise Unicode, which is slow (a listing hashes every song's folder; measured:
/// contrib/bench/README.md, Measurements behind constants) and wrong here, since a folder named in NFC
/// and one named in NFD are two folders on disk.
struct DirectoryStream {
    /// A directory's path (below the music folder, no trailing slash) as its UTF-8 bytes; a parent is
    /// a slice of its child's bytes, so climbing the tree copies nothing.
    private struct Folder: Hashable {
        let bytes: ArraySlice<UInt8>

        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
        init(_ path: String) { bytes = ArraySlice(path.utf8) }

        static func == (a: Folder, b: Folder) -> Bool {
            a.bytes.count == b.bytes.count && a.hasPrefix(b)
        }

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        /// Whether `dir`'s bytes start these (`dir` no longer than this path).
        func hasPrefix(_ dir: Folder) -> Bool {
            guard dir.bytes.count <= bytes.count else { return false }
            if dir.bytes.isEmpty { return true }
            return bytes.withUnsafeBytes { path in
                dir.bytes.withUnsafeBytes { memcmp(path.baseAddress!, $0.baseAddress!, $0.count) == 0 }
            }
        }

        /// The folder holding this one ("" for a top-level folder).
        var parent: Folder {
            Folder(bytes[..<(bytes.lastIndex(of: UInt8(ascii: "/")) ?? bytes.startIndex)])
        }

        /// The path as written in a `directory` line.
        var string: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// `base`'s length in bytes: every folder longer than it is strictly below it.
    private let baseCount: Int
    /// Every directory strictly below `base` that holds songs somewhere beneath: its newest time.
    private var modified: [Folder: Int64] = [:]
    /// Directories (`base` included) with a subdirectory below `base`.
    private var hasSubdirectories: Set<Folder> = []
    /// The directories open now, `base` first; each with its songs that wait for its subdirectories.
    private var open: [(path: Folder, waiting: [SongRecord])]
    /// The previous song's folder as its path had it, and whether its songs wait for its subdirectories.
    private var lastFolderBytes: [UInt8]?
    private var lastWaits = false

    /// `folders`: the songs' folders and their newest times, all under `base` (a test's whole-array
    /// reference gives them so).
    init(base: String, folders: [String: Int64]) {
        self.init(base: base, runs: folders.map { (folder: $0.key, newest: $0.value) })
    }

    /// `runs`: the songs' folders and their newest times (`Catalog.folderRuns`), a folder possibly
    /// more than once, all under `base`.
    init(base: String, runs: [(folder: String, newest: Int64)]) {
        baseCount = base.utf8.count
        open = [(Folder(base), [])]
        for (folder, time) in runs {
            var dir = Folder(folder)
            while dir.bytes.count > baseCount {
                // A directory seen before already counts in its parents (their times are at least its
                // own, their subdirectory marks are set): climb only while the time raises it.
                let parent = dir.parent
                if let known = modified.index(forKey: dir) {
                    if modified.values[known] >= time { break }
                    modified.values[known] = time
                } else {
                    modified[dir] = time
                    hasSubdirectories.insert(parent)
                }
                dir = parent
            }
        }
    }

    /// Takes the next song (path order); `visit` gets what can be written now.
    mutating func add(_ song: SongRecord, _ visit: (DirectoryTree.Entry) -> Void) {
        var path = song.path
        let waits = path.withUTF8 { place(path: $0, visit) }
        if waits { open[open.count - 1].waiting.append(song) } else { visit(.song(song)) }
    }

    /// Takes the next song's path (UTF-8, path order): opens and closes directories through `visit`,
    /// and says whether the song waits for its folder's subdirectories.
    private mutating func place(path: UnsafeBufferPointer<UInt8>, _ visit: (DirectoryTree.Entry) -> Void) -> Bool {
        // Most songs are in the previous song's folder: nothing opens or closes.
        if let last = lastFolderBytes, Self.isDirectly(path, in: last) { return lastWaits }
        let raw = Array(path[..<(path.lastIndex(of: UInt8(ascii: "/")) ?? 0)])
        lastFolderBytes = raw
        let folder = Folder(raw[...])
        lastWaits = hasSubdirectories.contains(folder)
        // Close what the song is not in.
        while open.count > 1, !Self.isWithin(folder, open[open.count - 1].path) {
            close(visit)
        }
        // Open the directories between the innermost one and the song's folder.
        let top = open[open.count - 1].path
        if folder.bytes.count > top.bytes.count {
            var starts: [Folder] = []
            var dir = folder
            while dir.bytes.count > top.bytes.count {
                starts.append(dir)
                dir = dir.parent
            }
            for dir in starts.reversed() {
                visit(.directory(dir.string, modified: modified[dir] ?? 0))
                open.append((dir, []))
            }
        }
        return lastWaits
    }

    /// Closes every directory still open (after the last song).
    mutating func finish(_ visit: (DirectoryTree.Entry) -> Void) {
        while !open.isEmpty { close(visit) }
    }

    private mutating func close(_ visit: (DirectoryTree.Entry) -> Void) {
        for song in open.removeLast().waiting { visit(.song(song)) }
    }

    /// Whether the song at `path` is directly in the folder with the bytes `folder` ("" for the music
    /// folder): `folder` and a slash start it, and no other slash follows (two C calls instead of a
    /// byte loop back from the end; `place` asks this for every song).
    private static func isDirectly(_ path: UnsafeBufferPointer<UInt8>, in folder: [UInt8]) -> Bool {
        guard let start = path.baseAddress else { return folder.isEmpty }
        let name = folder.isEmpty ? 0 : folder.count + 1
        guard name <= path.count else { return false }
        if !folder.isEmpty {
            guard start[folder.count] == UInt8(ascii: "/"),
                folder.withUnsafeBufferPointer({ memcmp($0.baseAddress!, start, folder.count) == 0 })
            else { return false }
        }
        return memchr(start + name, Int32(UInt8(ascii: "/")), path.count - name) == nil
    }

    /// Whether `path` is `dir` or below it.
    private static func isWithin(_ path: Folder, _ dir: Folder) -> Bool {
        if dir.bytes.isEmpty { return true }
        guard path.hasPrefix(dir) else { return false }
        return path.bytes.count == dir.bytes.count
            || path.bytes[path.bytes.startIndex + dir.bytes.count] == UInt8(ascii: "/")
    }
}
