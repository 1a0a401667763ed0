/// Where the parts of an MP4 file lie, learnt from its top-level atom headers alone: its brands and the
/// `moov` atom (at the front, or after `mdat`). Everything else, `mdat` above all, is stepped over unread.
///
/// One small read per top-level atom up to `moov`, then none: the walk stops at `moov`.
struct MP4Layout {
    /// The `ftyp` major brand and compatible brands (empty for an old QuickTime file without `ftyp`).
    var brands: [FourCC] = []
    /// The `moov` payload's range in the file.
    var moov: Range<Int> = 0..<0
    /// Problems met on the way (a `moov` cut short by the end of the file).
    var problems: [FormatError] = []

    /// The largest `moov` read; a bigger one is refused (a real one is a few KiB to a few MiB: its
    /// sample tables grow with the length, about 1 MiB for ten hours of AAC).
    static let maxMoovBytes = 64 << 20
    /// Top-level atoms stepped over before `moov` (a file of 8-byte `free` atoms ends here, not in a long walk).
    static let maxAtomsBeforeMoov = 4096

    /// Brands of the files read as audio: iTunes's, the ISO and QuickTime families, 3GPP, Flash and CMAF.
    static let knownBrands: Set<FourCC> = [
        "M4A ", "M4B ", "M4P ", "M4V ", "M4VH", "M4VP", "mp41", "mp42", "mp71", "isom", "iso2", "iso3", "iso4",
        "iso5", "iso6", "iso7", "iso8", "iso9", "avc1", "3gp4", "3gp5", "3gp6", "3gp7", "3g2a", "qt  ", "F4A ",
        "F4B ", "F4V ", "dash", "MSNV", "NDAS", "caqv", "cmfc", "cmf2", "cmfa",
    ]
    /// Top-level atoms an old QuickTime file may start with instead of `ftyp`.
    static let quickTimeStarts: Set<FourCC> = ["moov", "mdat", "free", "skip", "wide", "pnot"]

    /// Walks the top-level atoms of `source` up to `moov`.
    static func scan(_ source: some ByteSource) throws(FormatError) -> MP4Layout {
        var layout = MP4Layout()
        var offset = 0
        var count = 0
        while source.size - offset >= 8 {
            count += 1
            guard count <= maxAtomsBeforeMoov else {
                throw FormatError("damaged", "no moov atom in the first \(maxAtomsBeforeMoov) top-level atoms")
            }
            var header = ByteCursor(try source.read(at: offset, count: min(16, source.size - offset)))
            guard let size32 = header.u32be(), let type = header.u32be().map(FourCC.init(rawValue:)) else {
                throw FormatError("io", "could not read the atom header at byte \(offset)")
            }
            if count == 1 {
                guard type == "ftyp" || quickTimeStarts.contains(type) else {
                    throw FormatError("not-audio", "not an MP4 file: it starts with '\(type)', not 'ftyp'")
                }
            } else if !type.looksLikeAType {
                throw FormatError("damaged", "no moov atom: garbage instead of an atom at byte \(offset)")
            }
            var size = Int(size32)
            if size32 == 1 {
                guard let large = header.u64be(), large <= UInt64(Int.max) else {
                    throw FormatError("damaged", "the atom '\(type)' at byte \(offset) has a size that does not fit")
                }
                size = Int(large)
            } else if size32 == 0 {
                size = source.size - offset
            }
            let headerSize = size32 == 1 ? 16 : 8
            guard size >= headerSize else {
                throw FormatError("damaged", "the atom '\(type)' at byte \(offset) claims \(size) bytes")
            }
            let (end, overflow) = offset.addingReportingOverflow(size)
            if type == "ftyp" {
                let count = min(size - headerSize, 256, max(0, source.size - offset - headerSize))
                layout.brands = try brands(source, at: offset + headerSize, count: count)
            } else if type == "moov" {
                guard size - headerSize <= maxMoovBytes else {
                    throw FormatError(
                        "unsupported", "the moov atom is \(size >> 20) MiB, over the \(maxMoovBytes >> 20) MiB limit")
                }
                if overflow || end > source.size {
                    layout.problems.append(FormatError("damaged", "the moov atom is cut short by the end of the file"))
                }
                layout.moov = offset + headerSize..<min(overflow ? source.size : end, source.size)
                return layout
            }
            guard !overflow else { break }
            offset = end
        }
        throw FormatError("damaged", "no moov atom (an unfinished recording or a cut file)")
    }

    /// Reads the `ftyp` brands (the major brand, then the compatible ones) and refuses a file none of whose
    /// brands is known: an image or a video format that shares the ISO layout.
    private static func brands(_ source: some ByteSource, at offset: Int, count: Int) throws(FormatError) -> [FourCC] {
        var c = ByteCursor(try source.read(at: offset, count: count))
        guard let major = c.u32be().map(FourCC.init(rawValue:)), c.skip(4) else {
            throw FormatError("damaged", "the ftyp atom is too short")
        }
        var brands = [major]
        while let v = c.u32be() { brands.append(FourCC(rawValue: v)) }
        guard brands.contains(where: knownBrands.contains) else {
            throw FormatError("not-audio", "an ISO media file of brand '\(major)', not an audio format")
        }
        return brands
    }
}
