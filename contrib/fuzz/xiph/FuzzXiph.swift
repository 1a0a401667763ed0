// libFuzzer target 7: a file made of the input's bytes through the Xiph readers of the AudioFormats module
// (Sources/AudioFormats/Xiph and Common, built into this module by contrib/fuzz/run.sh): FLACReader (ID3v2
// skipping, metadata blocks, STREAMINFO, PICTURE headers), OggReader (page search and checksums, packet
// joining, the Vorbis, Opus and FLAC header packets, the backwards search for the last page), once as is
// and once with page checksums ignored (a mutated page otherwise rarely gets past its checksum), and the
// bytes as a bare Vorbis comment block and a bare FLAC PICTURE block.
//
// Checked (a failed check is a crash the fuzzer reports): the readers never trap; an error has a known kind
// and a reason; an info has a sample rate and channels, a length that is not negative, pictures whose range
// lies inside the file, tags with a value, problems with a reason; a picture's image lies inside its block.

let kinds: Set<String> = ["io", "not-audio", "damaged", "unsupported"]

func check(_ result: Result<AudioFileInfo, FormatError>, size: Int, reader: String) {
    switch result {
    case .failure(let error):
        require(kinds.contains(error.kind) && !error.reason.isEmpty, "\(reader): error \(error.kind) '\(error.reason)'")
    case .success(let info):
        require(info.sampleRate > 0 && info.channels > 0, "\(reader): \(info.sampleRate) Hz, \(info.channels) channels")
        require((info.samples ?? 0) >= 0 && info.bitrate >= 0, "\(reader): samples \(String(describing: info.samples))")
        for picture in info.pictures {
            if case .range(let range) = picture.location {
                require(range.lowerBound >= 0 && range.upperBound <= size, "\(reader): picture at \(range) of \(size)")
            }
        }
        require(info.tags.allSatisfy { !$0.value.isEmpty }, "\(reader): an empty tag value")
        require(
            info.problems.allSatisfy { !$0.reason.isEmpty && !$0.kind.isEmpty }, "\(reader): a problem without a reason"
        )
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = MemorySource(bytes)
    check(Result { () throws(FormatError) in try FLACReader.read(source) }, size: size, reader: "FLAC")
    check(Result { () throws(FormatError) in try OggReader.read(source) }, size: size, reader: "Ogg")
    check(
        Result { () throws(FormatError) in try OggReader.read(source, verifyChecksums: false) }, size: size,
        reader: "Ogg*")

    let comments = VorbisComments(bytes[...])
    require(comments.problems.count <= 3, "Vorbis comments: \(comments.problems)")
    if case .success(let picture) = FLACPicture.parse(bytes[...]) {
        require(picture.dataStart >= 0 && picture.dataStart <= size && picture.dataLength >= 0, "picture \(picture)")
    }
    return 0
}
