/// A FLAC `PICTURE` block's header (picture type, MIME type, description, dimensions) and where its image
/// data lies inside the block: shared by FLAC files, Ogg FLAC and `METADATA_BLOCK_PICTURE` comments.
struct FLACPicture: Equatable {
    /// The ID3/FLAC picture type (3: front cover).
    var type: Int
    var mime: String
    /// Where the image data starts, as an index into the bytes parsed (absolute in their slice).
    var dataStart: Int
    var dataLength: Int

    /// MIME types longer than this are not MIME types.
    static let maxMIME = 256
    /// The longest header a reader fetches to find the image: a description past this is refused.
    static let maxHeader = 1 << 20

    enum Failure: Error, Equatable {
        /// The bytes end inside the header: `needed` bytes from the block's start would hold all of it
        /// (nil when even the lengths that say so are missing).
        case cutShort(needed: Int?)
        case damaged(String)
    }

    /// Parses the header at the cursor's position; the image may lie beyond the bytes given.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Result<FLACPicture, Failure> {
        var c = ByteCursor(bytes)
        guard let type = c.u32be(), let mimeLength = c.u32be() else { return .failure(.cutShort(needed: nil)) }
        guard mimeLength <= maxMIME else { return .failure(.damaged("picture MIME type of \(mimeLength) bytes")) }
        guard let mime = c.take(Int(mimeLength)), let descriptionLength = c.u32be() else {
            return .failure(.cutShort(needed: nil))
        }
        let needed = 8 + Int(mimeLength) + 4 + Int(descriptionLength) + 20
        guard c.skip(Int(descriptionLength)), c.skip(16), let dataLength = c.u32be() else {
            return .failure(.cutShort(needed: needed))
        }
        guard mime.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            return .failure(.damaged("picture MIME type is not ASCII"))
        }
        return .success(
            FLACPicture(
                type: Int(type), mime: String(decoding: mime, as: UTF8.self), dataStart: c.position,
                dataLength: Int(dataLength)))
    }

    /// A whole `PICTURE` block held in memory (Ogg FLAC's packets, a decoded `METADATA_BLOCK_PICTURE`) as a
    /// `Picture` holding its bytes.
    static func inline(_ block: ArraySlice<UInt8>) -> Result<Picture, FormatError> {
        switch parse(block) {
        case .failure(.cutShort):
            return .failure(FormatError("damaged", "picture block is cut short"))
        case .failure(.damaged(let reason)):
            return .failure(FormatError("damaged", reason))
        case .success(let picture):
            guard picture.dataLength <= block.endIndex - picture.dataStart else {
                return .failure(
                    FormatError("damaged", "picture data of \(picture.dataLength) bytes runs past its block"))
            }
            let data = Array(block[picture.dataStart..<picture.dataStart + picture.dataLength])
            return .success(Picture(location: .bytes(data), mime: picture.mime, type: picture.type))
        }
    }
}
