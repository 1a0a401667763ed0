// libFuzzer target: the input is an MP4 file (`.m4a`, `.m4b`), read with `MP4Reader.read` — the top-level
// atom walk, `moov` wherever it lies, the tracks, sample tables, sample descriptions (esds and the
// AudioSpecificConfig bits, the ALAC cookie, dOps, dfLa), the exact-length rule, the ilst tags and covers,
// and both chapter forms (QuickTime chapter track, Nero chpl). Built by contrib/fuzz/run.sh from
// Sources/AudioFormats/Common and Sources/AudioFormats/MP4 (all instrumented; nothing else is needed).
//
// Checked (a failed check is a crash the fuzzer reports): the reader throws a FormatError with a kind and
// a reason, or returns a result whose stream facts are positive, whose counts are not negative, whose
// chapters are in time order and at most 1,000, whose pictures are ranges inside the file; and it never
// asks the source for bytes past the end of the file (a pread-backed source allocates what is asked), nor
// makes more reads than its caps allow.

/// The input as a `ByteSource` that checks each request.
final class CheckedSource: ByteSource {
    let inner: MemorySource
    var reads = 0

    init(_ bytes: [UInt8]) { inner = MemorySource(bytes) }

    var size: Int { inner.size }

    func read(at offset: Int, count: Int) throws(FormatError) -> [UInt8] {
        reads += 1
        require(offset >= 0 && count >= 0, "a read at \(offset) of \(count)")
        require(count <= size - offset, "a read of \(count) bytes at \(offset) in a file of \(size)")
        return try inner.read(at: offset, count: count)
    }
}

let knownKinds: Set<String> = ["io", "not-audio", "damaged", "unsupported"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = CheckedSource(Array(UnsafeBufferPointer(start: data, count: size)))
    do {
        let info = try MP4Reader.read(source)
        require(info.container == .mp4, "container \(info.container)")
        require(info.sampleRate > 0 && info.channels > 0, "stream facts: \(info.sampleRate) Hz, \(info.channels) ch")
        require((info.samples ?? 0) >= 0 && info.encoderDelay >= 0 && info.padding >= 0, "counts: \(info)")
        require(info.bitrate >= 0, "bitrate \(info.bitrate)")
        require(info.chapters.count <= MP4Chapters.maxChapters, "\(info.chapters.count) chapters")
        var last = Int.min
        for chapter in info.chapters {
            require(chapter.startMS >= last && chapter.startMS >= 0, "chapters out of order: \(info.chapters)")
            last = chapter.startMS
        }
        for picture in info.pictures {
            guard case .range(let r) = picture.location else { fatalError("a copied picture") }
            require(r.lowerBound >= 0 && r.upperBound <= size && !r.isEmpty, "picture at \(r) of \(size)")
        }
        for problem in info.problems {
            require(knownKinds.contains(problem.kind) && !problem.reason.isEmpty, "\(problem)")
        }
    } catch {
        require(knownKinds.contains(error.kind) && !error.reason.isEmpty, "error \(error.kind): \(error.reason)")
    }
    require(
        source.reads <= MP4Layout.maxAtomsBeforeMoov + 2 + MP4Chapters.maxChapters + 2, "\(source.reads) reads")
    return 0
}
