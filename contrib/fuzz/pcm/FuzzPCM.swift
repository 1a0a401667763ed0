// libFuzzer target 8: a file made of the input's bytes through the PCM readers of the AudioFormats module
// (Sources/AudioFormats/PCM and Common, built into this module by contrib/fuzz/run.sh): RIFFReader (RIFF,
// RF64 and BW64 WAV: chunk walking, `fmt ` with WAVE_FORMAT_EXTENSIBLE, `data` sizes from streaming writers,
// `LIST`/`INFO`, `id3 `) and AIFFReader (AIFF and AIFF-C: COMM with its 80-bit rate and compression types,
// SSND with its offset, text chunks, `ID3 `).
//
// Checked (a failed check is a crash the fuzzer reports): the readers never trap; an error has a known kind
// and a reason; an info's sample range lies inside the file, holds exactly its samples' frames (so the PCM
// decoder never reads past it), has a sample rate, channels and a bit depth the decoder plays; an ID3 range
// lies inside the file.

let kinds: Set<String> = ["io", "not-audio", "damaged", "unsupported"]

func check(_ result: Result<AudioFileInfo, FormatError>, size: Int, reader: String) {
    switch result {
    case .failure(let error):
        require(kinds.contains(error.kind) && !error.reason.isEmpty, "\(reader): error \(error.kind) '\(error.reason)'")
    case .success(let info):
        require(info.sampleRate > 0 && info.channels > 0, "\(reader): \(info.sampleRate) Hz, \(info.channels) channels")
        let bits = info.bitsPerSample ?? 0
        require(info.isFloat ? [32, 64].contains(bits) : (1...32).contains(bits), "\(reader): \(bits) bits")
        guard let range = info.dataRange, let samples = info.samples else {
            fatalError("fuzz check failed: \(reader): no sample range or length")
        }
        require(range.lowerBound >= 0 && range.upperBound <= size, "\(reader): samples at \(range) of \(size)")
        let frame = info.channels * ((bits + 7) / 8)
        require(
            range.count % frame == 0 && Int64(range.count / frame) == samples,
            "\(reader): \(samples) samples in \(range.count) bytes")
        if let id3 = info.id3Range {
            require(
                id3.lowerBound >= 0 && id3.upperBound <= size && !id3.isEmpty, "\(reader): ID3 at \(id3) of \(size)")
        }
        require(info.problems.allSatisfy { !$0.reason.isEmpty }, "\(reader): a problem without a reason")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = MemorySource(Array(UnsafeBufferPointer(start: data, count: size)))
    check(Result { () throws(FormatError) in try RIFFReader.read(source) }, size: size, reader: "WAV")
    check(Result { () throws(FormatError) in try AIFFReader.read(source) }, size: size, reader: "AIFF")
    return 0
}
