/// Parses a Vorbis comment block (FLAC's `VORBIS_COMMENT`, Vorbis's comment header, `OpusTags`): the vendor
/// string and `NAME=value` fields as tags, `METADATA_BLOCK_PICTURE` (and the older `COVERART`) as pictures.
///
/// Every count and length is checked against the bytes there are, so a block claiming 2^32 fields or a
/// 4 GiB field ends with a problem after the fields it really holds. Text that is not UTF-8 is decoded
/// with replacement characters and reported once (`invalid-text`).
struct VorbisComments {
    var vendor = ""
    var tags: [Tag] = []
    var pictures: [Picture] = []
    var problems: [FormatError] = []

    /// The largest picture decoded from base64.
    static let maxPictureBytes = 16 << 20

    init(_ bytes: ArraySlice<UInt8>) {
        var c = ByteCursor(bytes)
        guard let vendorLength = c.u32le(), let vendorBytes = c.take(Int(vendorLength)), let count = c.u32le() else {
            problems.append(FormatError("damaged", "Vorbis comment block is cut short in its vendor string"))
            return
        }
        vendor = text(vendorBytes)
        var cutShort = false
        for _ in 0..<count {
            guard let length = c.u32le(), let field = c.take(Int(length)) else {
                cutShort = true
                break
            }
            add(field)
        }
        if cutShort {
            problems.append(
                FormatError("damaged", "Vorbis comment block claims \(count) fields, is cut short after \(tags.count)"))
        }
    }

    /// Adds all of it to `info`.
    func apply(to info: inout AudioFileInfo) {
        info.tags += tags
        info.pictures += pictures
        info.problems += problems
    }

    private mutating func add(_ field: ArraySlice<UInt8>) {
        guard let equals = field.firstIndex(of: UInt8(ascii: "=")), equals > field.startIndex else { return }
        let name = VorbisCommentKeys.asciiUppercased(String(decoding: field[..<equals], as: UTF8.self))
        let raw = field[(equals + 1)...]
        switch name {
        case "METADATA_BLOCK_PICTURE":
            addPicture(raw)
        case "COVERART":
            if let data = Base64.decode(raw, maxBytes: Self.maxPictureBytes) {
                pictures.append(Picture(location: .bytes(data), mime: "", type: 3))
            } else {
                problems.append(FormatError("damaged", "COVERART is not base64 (or over 16 MiB)"))
            }
        case "COVERARTMIME":
            // Belongs to the COVERART before it (the legacy pair).
            if let last = pictures.indices.last, pictures[last].mime.isEmpty { pictures[last].mime = text(raw) }
        default:
            var value = text(raw)
            while value.last == "\0" { value.removeLast() }
            guard !value.isEmpty else { return }
            tags.append(Tag(VorbisCommentKeys.key(name), value))
        }
    }

    private mutating func addPicture(_ raw: ArraySlice<UInt8>) {
        guard let block = Base64.decode(raw, maxBytes: Self.maxPictureBytes) else {
            problems.append(FormatError("damaged", "METADATA_BLOCK_PICTURE is not base64 (or over 16 MiB)"))
            return
        }
        switch FLACPicture.inline(block[...]) {
        case .success(let picture): pictures.append(picture)
        case .failure(let error): problems.append(FormatError(error.kind, "METADATA_BLOCK_PICTURE: \(error.reason)"))
        }
    }

    /// UTF-8 text, invalid sequences replaced; the first invalid one is reported.
    private mutating func text(_ bytes: ArraySlice<UInt8>) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        if !problems.contains(where: { $0.kind == "invalid-text" }) {
            problems.append(FormatError("invalid-text", "a Vorbis comment is not valid UTF-8"))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
