import Glibc

// libFuzzer target 2 (issue 21): a file made of the input's bytes through the tag reader the scanner uses
// (Sources/Library/Scanner/TrackReader.swift and what it calls: the ID3v2 layout walker, the MPEG frame
// header scan, the Xing/Info/VBRI header, libmpg123's open, scan and ID3 parsing, the tag mapping with
// its text decoding and genre mapping, chapters, podcast/audiobook classification and path hints),
// built into this module by contrib/fuzz/run.sh; the Mpg123 wrapper and ClickWheelCore are linked from
// the debug build, libmpg123 is the system's.
//
// The bytes are written to a file in /dev/shm and read by path, as LibraryScanner does (open, fstat,
// pread, mmap for a full scan). The input's length picks the path the walker would give it, so path hints
// and the podcast and audiobook folders run too.
//
// Checked (a failed check is a crash the fuzzer reports): the reader never throws or traps; a track it
// returns has a positive length, a sample rate and 1 or 2 channels, a finite duration, an album and an
// artist, chapters in time order inside the track, artwork inside the file; text fields hold no NUL.

let paths = [
    "Artist Name/Album Name/07 Some Title.mp3", "Podcasts/Show Name/2024-01-02 Episode.mp3",
    "Audiobooks/Author/Book/Part 01.mp3", "loose.mp3", "Compilations/Various/03 - Artist - Title.mp3",
]
let file = "/dev/shm/clickwheel-fuzz-tags-\(getpid()).mp3"
nonisolated(unsafe) var reader: TrackReader?  // one libFuzzer thread: one reader, as one scanning thread has

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    require(fd >= 0, "cannot create \(file)")
    require(size == 0 || write(fd, data, size) == size, "cannot write \(file)")
    close(fd)
    if reader == nil { reader = try? TrackReader() }
    guard let reader else { fatalError("libmpg123 did not start") }
    let relative = paths[size % paths.count]
    switch reader.read(path: Array(file.utf8) + [0], relativePath: relative) {
    case .skipped(let problem):
        require(!problem.reason.isEmpty, "a skip without a reason")
    case .track(let m):
        require(m.samples > 0 && m.sampleRate > 0 && (1...2).contains(m.channels), "stream facts: \(m)")
        require(m.durationMS >= 0 && m.bitrate >= 0, "duration \(m.durationMS) ms, bitrate \(m.bitrate)")
        require(!m.album.isEmpty && !m.artists.isEmpty, "no album or artist")
        var last = -1
        for chapter in m.chapters {
            require(chapter.startMS >= last, "chapters out of order: \(m.chapters)")
            require(chapter.startMS <= max(0, m.durationMS), "a chapter after the end: \(m.chapters), \(m.durationMS) ms")
            last = chapter.startMS
        }
        if let offset = m.artworkOffset, let length = m.artworkSize {
            require(offset >= 0 && length >= 0 && offset + length <= size, "artwork at \(offset)+\(length) of \(size)")
        }
        for text in [m.title, m.album] + m.artists + m.albumArtists + m.genres + m.composers {
            require(!text.utf8.contains(0), "a NUL in \(text.debugDescription)")
        }
    }
    return 0
}
