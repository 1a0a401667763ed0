import AudioFormats
import Glibc

/// Walks the music folder: every file of a format ClickWheel plays (`FormatCatalog`'s suffixes, any
/// case) and `.m3u`/`.m3u8` file, with size and mtime.
///
/// Uses `opendir`/`readdir`/`stat` directly so file names stay raw bytes (a name that is not UTF-8 is
/// still indexed) and no directory listing is kept whole. Symbolic links are followed; a directory
/// reached twice (same device and inode) is a loop and is not entered again. Hidden directories
/// (".git", ".Trash-1000") are skipped; entries are visited in byte order, so runs are repeatable.
struct DirectoryWalker {
    struct Entry {
        /// Path relative to the music folder, raw bytes.
        var relative: [UInt8]
        var size: Int
        var mtimeNS: Int64
        /// The file's inode number: the scanner reads a batch in this order, which on ext4 and most
        /// file systems is close to where the files lie on the disk.
        var inode: UInt64 = 0
    }

    struct Result {
        var audio: [Entry] = []
        var playlists: [Entry] = []
        /// Paths that could not be walked (loops, unreadable folders), with why.
        var problems: [(relative: [UInt8], problem: ScanProblem)] = []
    }

    let root: [UInt8]

    init(root: String) {
        var r = Array(root.utf8)
        while r.count > 1, r.last == UInt8(ascii: "/") { r.removeLast() }
        self.root = r
    }

    func walk() -> Result {
        var result = Result()
        var visited = Set<DirectoryID>()
        var st = Glibc.stat()
        guard Self.statPath(root, &st) else { return result }
        visited.insert(DirectoryID(st))
        var stack: [[UInt8]] = [[]]
        while let rel = stack.popLast() {
            let dirPath = rel.isEmpty ? root : root + [0x2F] + rel
            // Entries are examined relative to the open folder (fstatat): no full-path lookups.
            guard let dir = Self.open(dirPath) else {
                if !rel.isEmpty {
                    result.problems.append((rel, ScanProblem("unreadable", "cannot list the folder: \(Self.errorText())")))
                }
                continue
            }
            defer { closedir(dir) }
            let dfd = dirfd(dir)
            var subdirs: [[UInt8]] = []
            for (name, type) in Self.entries(dir) {
                let suffix = FormatCatalog.suffix(of: name)
                let isAudio = FormatCatalog.playableSuffixes.contains(suffix)
                let isPlaylist = !isAudio && (suffix == "m3u" || suffix == "m3u8")
                let childRel = rel.isEmpty ? name : rel + [0x2F] + name
                // A regular file that is neither audio nor a playlist needs no stat at all; audio of a
                // format ClickWheel does not play is reported, not passed over in silence.
                if type == DT_REG, !isAudio, !isPlaylist {
                    if let what = FormatCatalog.unplayable[suffix] {
                        result.problems.append((childRel, ScanProblem("unsupported-format", "\(what) (.\(suffix)): a format ClickWheel does not play")))
                    }
                    continue
                }
                guard Self.statAt(dfd, name, &st, follow: true) else {
                    if errno == ELOOP {
                        result.problems.append((childRel, ScanProblem("symlink-loop", "symbolic links point at each other")))
                    } else if errno == ENOENT {
                        // Listed a moment ago: a dangling symbolic link, or a file deleted under us.
                        var lst = Glibc.stat()
                        if isAudio, Self.statAt(dfd, name, &lst, follow: false), lst.st_mode & S_IFMT == S_IFLNK {
                            result.problems.append((childRel, ScanProblem("broken-link", "a symbolic link to nothing")))
                        }
                    } else {
                        result.problems.append((childRel, ScanProblem("unreadable", "cannot stat: \(Self.errorText())")))
                    }
                    continue
                }
                if st.st_mode & S_IFMT == S_IFDIR {
                    if name.first == UInt8(ascii: ".") { continue }
                    if !visited.insert(DirectoryID(st)).inserted {
                        result.problems.append((childRel, ScanProblem("symlink-loop", "a folder reached a second time through a link")))
                        continue
                    }
                    subdirs.append(childRel)
                } else if st.st_mode & S_IFMT == S_IFREG, isAudio || isPlaylist {
                    let entry = Entry(
                        relative: childRel, size: Int(st.st_size),
                        mtimeNS: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec),
                        inode: UInt64(st.st_ino))
                    if isAudio { result.audio.append(entry) } else { result.playlists.append(entry) }
                }
            }
            stack.append(contentsOf: subdirs.reversed())
        }
        return result
    }

    struct DirectoryID: Hashable {
        var dev: UInt64
        var ino: UInt64
        init(_ st: Glibc.stat) {
            dev = UInt64(st.st_dev)
            ino = UInt64(st.st_ino)
        }
    }

    static func statPath(_ path: [UInt8], _ st: inout Glibc.stat) -> Bool {
        (path + [0]).withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { fstatat(AT_FDCWD, $0.baseAddress!, &st, 0) == 0 }
        }
    }

    static func open(_ path: [UInt8]) -> OpaquePointer? {
        (path + [0]).withUnsafeBufferPointer { p in p.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) } }
    }

    /// The entries of an open folder with their `d_type`, sorted bytewise, without "." and "..".
    static func entries(_ dir: OpaquePointer) -> [(name: [UInt8], type: Int)] {
        var out: [(name: [UInt8], type: Int)] = []
        while let ent = readdir(dir) {
            let name = withUnsafeBytes(of: ent.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            out.append((name, Int(ent.pointee.d_type)))
        }
        return out.sorted { $0.name.lexicographicallyPrecedes($1.name) }
    }

    static func statAt(_ dfd: Int32, _ name: [UInt8], _ st: inout Glibc.stat, follow: Bool) -> Bool {
        (name + [0]).withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) {
                fstatat(dfd, $0.baseAddress!, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW) == 0
            }
        }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
