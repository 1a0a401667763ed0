@testable import ControlServer
import Library
import MPDProtocol

/// The listing as it was before it streamed: the whole array of songs under `base`, cut into
/// directories level by level. The streamed listings must answer exactly what this walk gives.
///
/// Songs come in path order, so the songs below one directory are one contiguous run: every level is
/// one pass over its own slice, and `walk` visits each song once per level at most.
struct WholeArrayTree {
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

    /// Every directory (before its contents) and song below `base`, depth first, as `listall` lists them.
    static func walk(_ songs: [SongRecord], base: String, _ visit: (DirectoryTree.Entry) -> Void) {
        walk(songs[...], base: base, visit)
    }

    private static func walk(_ songs: ArraySlice<SongRecord>, base: String, _ visit: (DirectoryTree.Entry) -> Void) {
        let tree = WholeArrayTree(songs, base: base)
        for dir in tree.subdirectories {
            visit(.directory(dir.path, modified: dir.modified))
            walk(songs[dir.songs], base: dir.path, visit)
        }
        for song in tree.files { visit(.song(song)) }
    }

    /// The answer of `listallinfo` (or `listall`) of `base` with these tag types, made from the
    /// walk with `SongWriter` (sanitised values), `OK` included: `base` itself first (not the music
    /// folder), with its newest song's time, as MPD begins with the folder.
    static func listing(_ command: String, _ songs: [SongRecord], base: String, tags: Set<String>) -> [UInt8] {
        var w = MPDResponseWriter()
        if !base.isEmpty, let newest = songs.map(\.modified).max() {
            w.field("directory", base)
            if command == "listallinfo" { w.field("Last-Modified", SongWriter.timestamp(newest)) }
        }
        walk(songs, base: base) { entry in
            switch entry {
            case .directory(let path, let modified):
                w.field("directory", path)
                if command == "listallinfo" { w.field("Last-Modified", SongWriter.timestamp(modified)) }
            case .song(let song):
                if command == "listallinfo" { SongWriter.write(song, tags: tags, into: &w) } else { w.field("file", song.path) }
            }
        }
        return w.bytes + MPDResponse.ok
    }
}
