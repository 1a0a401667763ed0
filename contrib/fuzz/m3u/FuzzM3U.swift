// libFuzzer target 3 (issue 21): a playlist file's bytes through the reader the indexer uses
// (Sources/Library/Scanner/M3UReader.swift, with the text decoding it calls, built into this module by
// contrib/fuzz/run.sh). The input's first byte picks where the playlist lies (top level, a folder, two
// folders deep) and whether the music folder's absolute path is known; the rest is the file.
//
// Checked (a failed check is a crash the fuzzer reports), on the bytes of each entry, as the database
// stores them: at most one entry per line; every entry a relative path inside the music folder: no
// leading or doubled slash, no `.` or `..` component, no backslash, no line break, not a stream URL.

let folders = ["Mix.m3u", "Playlists/Mix.m3u8", "a/b/Trip.m3u"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let pick = Int(data[0])
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let root = pick & 4 == 0 ? "" : "/home/pi/Music"
    let entries = M3UReader.entries(bytes, playlistPath: folders[pick % 3], root: root)

    let lineEnds = bytes.reduce(0) { $0 + ($1 == 0x0A || $1 == 0x0D ? 1 : 0) }
    require(entries.count <= lineEnds + 1, "\(entries.count) entries from \(lineEnds + 1) lines")
    for entry in entries {
        let utf8 = Array(entry.utf8)
        require(!utf8.contains(0x5C), "a backslash in \(entry.debugDescription)")
        require(!utf8.contains(0x0A) && !utf8.contains(0x0D), "a line break in \(entry.debugDescription)")
        require(!entry.contains("://"), "a stream URL kept: \(entry.debugDescription)")
        if utf8.isEmpty { continue }  // a line of only `.`/`..`/slashes at the top: the folder itself
        let components = utf8.split(separator: 0x2F, omittingEmptySubsequences: false)
        for component in components {
            require(!component.isEmpty, "an empty component (leading, trailing or doubled slash) in \(entry.debugDescription)")
            require(
                component.elementsEqual([0x2E]) == false && component.elementsEqual([0x2E, 0x2E]) == false,
                "a . or .. component in \(entry.debugDescription)")
        }
    }
    return 0
}
