// libFuzzer target `feed`: a document's bytes through the podcast module's pure part (Sources/Podcasts/Feed,
// built into this module by contrib/fuzz/run.sh): FeedParser.parse (RSS 2.0 with the iTunes tags, RSS 1.0,
// Atom, over Foundation's XMLParser), the date and duration scanners on every item's text, the episode file
// names made from every item, and the OPML import with an export read back.
//
// Checked (a failed check is a crash the fuzzer reports): nothing traps; a refusal is a FeedError or an
// OPML.ImportError with a one-line description; a parsed feed's dates are finite, durations finite and not
// negative, lengths positive; every episode file name is one safe path component (no `/`, no control
// character, no leading dot, at most EpisodeFileName.maxBytes bytes, an extension) and the same when made
// twice; OPML exported from an import reads back to the same feed URLs.
import Foundation

func checkName(_ name: String, _ what: String) {
    require(!name.isEmpty && name.utf8.count <= EpisodeFileName.maxBytes, "\(what): length \(name.utf8.count)")
    require(!name.hasPrefix(".") && !name.contains("/"), "\(what): unsafe '\(name)'")
    require(!name.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }, "\(what): control character")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    do {
        let feed = try FeedParser.parse(bytes, cap: 1 << 20)
        let folder = EpisodeFileName.folder(forShow: feed.title)
        checkName(folder, "folder")
        for item in feed.items {
            if let date = item.published { require(date.timeIntervalSince1970.isFinite, "date") }
            if let text = item.dateText { require(FeedDates.parse(text) == item.published, "date read twice differs") }
            if let duration = item.duration { require(duration.isFinite && duration >= 0, "duration \(duration)") }
            if let length = item.enclosure?.length { require(length > 0, "length \(length)") }
            let name = EpisodeFileName.make(for: item)
            checkName(name, "episode")
            require(name == EpisodeFileName.make(for: item), "unstable name")
            require(name.contains("."), "no extension: \(name)")
        }
    } catch {
        require(!error.description.isEmpty && !error.description.contains("\n"), "feed error '\(error.description)'")
    }
    do {
        let subscriptions = try OPML.parse(bytes, cap: 1 << 20)
        let exported = OPML.export(subscriptions, created: Date(timeIntervalSince1970: 0))
        let back = try? OPML.parse(Data(exported.utf8))
        require(back != nil, "exported OPML does not parse")
        // URLs XML cannot hold as written (control characters, which export drops) are left out.
        let plain = subscriptions.map(\.feedURL).filter { !$0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0xFFFE || $0.value == 0xFFFF } }
        if plain.count == subscriptions.count {
            require(back!.map(\.feedURL) == plain, "OPML round trip: \(plain) -> \(back!.map(\.feedURL))")
        }
    } catch {
        require(!error.description.isEmpty && !error.description.contains("\n"), "OPML error '\(error.description)'")
    }
    return 0
}
