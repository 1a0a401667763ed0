/// The iTunes-style tags of an `ilst` atom, mapped onto the format-independent keys: each item atom's
/// `data` atoms decoded by their type indicator (1 UTF-8, 2 UTF-16, 21 signed and 22 unsigned integers,
/// 0 implicit: the item's kind decides), `covr` images as ranges of the file, never copied.
struct MP4Tags {
    var tags: [Tag] = []
    var pictures: [Picture] = []
    /// `iTunSMPB`, when present and readable: the length rule prefers it.
    var gapless: ITunesGapless?
    var problems: [FormatError] = []

    /// Values read in all (tags and pictures): a real `ilst` has tens; a hostile one of millions of tiny
    /// `data` atoms ends here, not in millions of strings.
    static let maxValues = 10_000

    /// No tags: a file without `ilst`.
    init() {}

    /// Reads `ilst`; `fileOffset` is the file offset of the buffer index 0 its slices index into.
    init(ilst: MP4Atom, fileOffset: Int) {
        var items = ilst.children
        while let item = items.next() {
            guard tags.count + pictures.count + shortDescriptions.count < Self.maxValues else {
                problems.append(FormatError("damaged", "the ilst atom has more than \(Self.maxValues) values"))
                break
            }
            read(item, fileOffset: fileOffset)
        }
        if let damage = items.damage { problems.append(FormatError("damaged", "in ilst: \(damage)")) }
        if !tags.contains(where: { $0.key == .podcastDescription }) { tags += shortDescriptions }
    }

    /// `desc` values, kept only when there is no long description (`ldes`; `desc` is cut at 255 characters).
    private var shortDescriptions: [Tag] = []

    private mutating func read(_ item: MP4Atom, fileOffset: Int) {
        let kind = MP4ItemKind.table[item.type]
        var freeformKey: TagKey?
        if kind == .freeform {
            let mean = item.child("mean")?.body.map(Self.text) ?? ""
            let name = item.child("name")?.body.map(Self.text) ?? ""
            guard !name.isEmpty else { return }
            freeformKey = MP4ItemKind.freeformKey(mean: mean, name: name)
        }
        for data in item.children where data.type == "data" {
            guard tags.count + pictures.count + shortDescriptions.count < Self.maxValues else { return }
            // The type indicator (a set byte, 0, and a 24-bit type), the locale, the value.
            var c = ByteCursor(data.payload)
            guard let indicator = c.u32be(), c.skip(4) else { continue }
            let type = Int(indicator & 0xFF_FFFF)
            let value = c.bytes[c.position...]
            switch kind {
            case .text(let key) where item.type == "desc":
                if let text = Self.decode(value, type: type).map(Self.trimmingNULs), !text.isEmpty {
                    shortDescriptions.append(Tag(key, text))
                }
            case .text(let key): add(key, Self.decode(value, type: type))
            case .integer(let key): add(key, Self.integer(value, type: type).map(String.init))
            case .flag(let key): if let n = Self.integer(value, type: type), n != 0 { add(key, "1") }
            case .pair(let number, let total):
                var p = ByteCursor(value)
                guard p.skip(2), let n = p.u16be() else { continue }
                if n > 0 { add(number, String(n)) }
                if let t = p.u16be(), t > 0 { add(total, String(t)) }
            case .genreNumber:
                if let n = Self.integer(value, type: type), n >= 1, n <= MP4ItemKind.genres.count {
                    add(.genre, MP4ItemKind.genres[Int(n) - 1])
                }
            case .cover: addPicture(value, type: type, fileOffset: fileOffset)
            case .freeform:
                guard let key = freeformKey, let text = Self.decode(value, type: type) else { continue }
                if key == .other("com.apple.iTunes:iTunSMPB"), gapless == nil { gapless = ITunesGapless(text) }
                add(key, text)
            case nil:  // an atom not in the table: kept when it holds text (`©too`, `©wrk`)
                if type == 1 || type == 2 { add(.other(item.type.description), Self.decode(value, type: type)) }
            }
        }
    }

    private mutating func add(_ key: TagKey, _ value: String?) {
        guard let value else { return }
        let trimmed = Self.trimmingNULs(value)
        if !trimmed.isEmpty { tags.append(Tag(key, trimmed)) }
    }

    /// A `covr` image: JPEG (13), PNG (14), BMP (27), or by its first bytes when the type is implicit.
    private mutating func addPicture(_ bytes: ArraySlice<UInt8>, type: Int, fileOffset: Int) {
        guard !bytes.isEmpty else { return }
        let mime: String
        switch type {
        case 13: mime = "image/jpeg"
        case 14: mime = "image/png"
        case 27: mime = "image/bmp"
        default:
            if bytes.starts(with: [0xFF, 0xD8]) {
                mime = "image/jpeg"
            } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
                mime = "image/png"
            } else {
                problems.append(FormatError("unsupported", "a cover image of data type \(type) was skipped"))
                return
            }
        }
        let start = fileOffset + bytes.startIndex
        pictures.append(Picture(location: .range(start..<start + bytes.count), mime: mime, type: 3))
    }
}
