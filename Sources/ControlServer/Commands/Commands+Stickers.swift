import Library
import MPDProtocol

/// MPD 0.23's `sticker` command on songs (`StickerStore`): what clients such as myMPD, Cantata and
/// M.A.L.P. read and write, the device's own counts and rating included. Answers and refusals word
/// themselves as a real MPD 0.23.12 with a sticker database does (recorded here).
extension ControlCommands {
    /// `sticker get|set|delete|list|find song URI …`.
    static func sticker(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let a = req.arguments
        let verb = a[0].string
        // MPD checks the shape of the request before the domain.
        guard let counts = stickerShapes[verb], counts.contains(a.count) else { throw .argument("bad request") }
        guard a[1].string == "song" else { throw .argument("unknown sticker domain") }
        let stickers = ctx.stickers
        if verb == "find" {
            var comparison: StickerStore.Comparison?
            if a.count == 6 {
                guard let op = StickerStore.Comparison(rawValue: a[4].string) else { throw .argument("bad operator") }
                comparison = op
            }
            let directory = a[2].validString ?? "\u{0}"
            let found = directory.isEmpty && comparison == nil
                ? try stickersEverywhere(ctx, a[3].string)
                : try stickerCall {
                    try stickers.find(under: directory, a[3].string, comparison, a.count == 6 ? a[5].string : "")
                }
            for hit in found {
                if w.abandoned { throw .abandoned }
                w.field("file", hit.path)
                w.field("sticker", a[3].string + "=" + hit.value)
            }
            return
        }
        guard let uri = a[2].validString, let track = try libraryCall({ try ctx.catalog.trackID(path: uri) }) else {
            throw .noExist("No such song")
        }
        switch verb {
        case "get":
            let value = try stickerCall { try stickers.get(track, a[3].string) }
            w.field("sticker", a[3].string + "=" + value)
        case "list":
            for s in try stickerCall({ try stickers.list(track) }) { w.field("sticker", s.name + "=" + s.value) }
        case "set":
            let ratingChanged = try stickerCall { try stickers.set(track, a[3].string, a[4].string) }
            // The stickers table has no rowid, so SQLite tells no observer of its writes (`TableCommits`).
            ctx.librarySongs.stickerFinds.clear()
            ctx.playerSource.libraryEdited(ratingChanged ? [.sticker, .storedPlaylist] : .sticker)
        default:  // delete
            let ratingChanged = try stickerCall { try stickers.delete(track, a.count == 4 ? a[3].string : nil) }
            ctx.librarySongs.stickerFinds.clear()
            ctx.playerSource.libraryEdited(ratingChanged ? [.sticker, .storedPlaylist] : .sticker)
        }
    }

    /// `sticker find song "" NAME`: kept between commands (`LibrarySongs.stickerFinds`), or pinned on the
    /// event loop (`ControlCommands.executeWithoutBlocking`).
    private static func stickersEverywhere(_ ctx: MPDContext, _ name: String) throws(MPDError)
        -> [(path: String, value: String)]
    {
        if let pinned = ctx.pinnedStickers { return pinned }
        let stickers = ctx.stickers
        return try stickerCall { try ctx.librarySongs.stickerFinds(name).get { try stickers.find(under: "", name) } }
    }

    /// How many arguments each `sticker` verb takes, the verb included.
    private static let stickerShapes: [String: Set<Int>] = [
        "get": [4], "set": [5], "delete": [3, 4], "list": [3], "find": [4, 6],
    ]

    /// A sticker store call, its refusals worded as MPD's.
    private static func stickerCall<T>(_ body: () throws -> T) throws(MPDError) -> T {
        do {
            return try body()
        } catch let error as StickerStore.Failure {
            switch error {
            case .noSuchSticker: throw .noExist("no such sticker")
            case .readOnly(let name): throw .argument("\(name) is counted by the device and cannot be changed")
            case .badRating: throw .argument("rating must be a number from 0 to 10")
            }
        } catch {
            throw .system("library: \(error)")
        }
    }
}
