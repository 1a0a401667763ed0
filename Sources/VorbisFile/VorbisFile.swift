import CVorbisFile

/// One Ogg Vorbis file open for decoding (`OggVorbis_File`).
///
/// `init` opens and reads the headers (`ov_fopen`), `deinit` closes (`ov_clear`). libvorbisfile trims
/// by the granule positions: the first page's and the last page's, so a stream decodes to exactly its
/// length (`pcmTotal`), and `seek(toSample:)` is sample-exact (`ov_pcm_seek`).
///
/// Thread rules: one thread at a time; not `Sendable`.
public final class VorbisFile {
    private let file: UnsafeMutablePointer<OggVorbis_File>

    /// Opens the file named by `path` (raw bytes, no NUL).
    public init(path: [UInt8]) throws(VorbisError) {
        let f = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        let result = (path + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { ov_fopen($0.baseAddress, f) }
        }
        if result < 0 {
            // ov_fopen clears what it opened when it fails; `file` is not set, so `deinit` does not run.
            f.deallocate()
            throw VorbisError(operation: "ov_fopen", code: Int(result))
        }
        file = f
    }

    deinit {
        ov_clear(file)
        file.deallocate()
    }

    /// Rate and channels of a link (`ov_info`; -1: the current one).
    public func format(link: Int = -1) -> (sampleRate: Int, channels: Int)? {
        guard let info = ov_info(file, Int32(link)) else { return nil }
        return (Int(info.pointee.rate), Int(info.pointee.channels))
    }

    /// Samples per channel of the whole file (`ov_pcm_total`), nil when unknown (not seekable).
    public var pcmTotal: Int64? {
        let n = ov_pcm_total(file, -1)
        return n < 0 ? nil : n
    }

    /// Decodes up to `maxFrames` samples per channel (`ov_read_float`). Returns planar floats valid until
    /// the next call, how many frames they hold (0 at the end) and the link they belong to. Throws
    /// `OV_HOLE` (a gap: decoding goes on after it), `OV_EBADLINK`, `OV_EINVAL`.
    public func readFloat(
        maxFrames: Int
    ) throws(VorbisError) -> (channels: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?, frames: Int, link: Int) {
        var pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
        var link: Int32 = 0
        let n = try VorbisError.check(
            ov_read_float(file, &pcm, Int32(min(maxFrames, Int(Int32.max))), &link), "ov_read_float")
        return (pcm, n, Int(link))
    }

    /// Moves to `sample` (per channel) exactly (`ov_pcm_seek`).
    public func seek(toSample sample: Int64) throws(VorbisError) {
        try VorbisError.check(ov_pcm_seek(file, max(0, sample)), "ov_pcm_seek")
    }

    /// The sample the next read starts at (`ov_pcm_tell`).
    public var position: Int64 { ov_pcm_tell(file) }
}
