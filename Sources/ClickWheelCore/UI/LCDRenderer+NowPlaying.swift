/// The Now Playing layout: position, title, artist/album, and a progress or overlay line at the bottom.
extension LCDRenderer {
    /// How long the artist and the album take turns on a 4-row display, milliseconds.
    static let alternateMS: Int64 = 4000

    func renderNowPlaying(_ np: NowPlayingView, now: Timestamp, into b: inout FrameBuilder) {
        let elapsed = now.milliseconds(since: np.since)
        let bottomRow = geometry.rows - 1
        var modeIcons: [Frame.Cell] = []
        if np.shuffle != .off { modeIcons.append(b.glyph(.shuffle)) }
        switch np.repeatMode {
        case .off: break
        case .one: modeIcons.append(b.glyph(.repeatOne))
        case .all: modeIcons.append(b.glyph(.repeatAll))
        }
        let state = icons(np.icons, into: &b)
        let label = np.overlay == .scrubbing ? "Scrubbing" : "\(np.position) of \(np.count)"
        if geometry.rows >= 3 {
            b.write(row: 0, left: state + b.cells((state.isEmpty ? "" : " ") + label), right: modeIcons)
            b.write(row: 1, marqueeCells(np.title, elapsedMS: elapsed, into: &b))
            if geometry.rows >= 5 {
                b.write(row: 2, marqueeCells(np.artist, elapsedMS: elapsed, into: &b))
                b.write(row: 3, marqueeCells(np.chapter ?? np.album, elapsedMS: elapsed, into: &b))
            } else if geometry.rows == 4, let chapter = np.chapter {
                // A chaptered file: the chapter (what Next and Previous move through) takes the
                // artist/album row; the part's title stays above it.
                b.write(row: 2, marqueeCells(chapter, elapsedMS: elapsed, into: &b))
            } else if geometry.rows == 4 {
                let showAlbum = (max(0, elapsed) / Self.alternateMS) % 2 == 1 && !np.album.isEmpty
                if !np.album.isEmpty { b.mayChange(inMS: Self.untilNext(multipleOf: Self.alternateMS, elapsedMS: elapsed)) }
                b.write(row: 2, left: b.cells(showAlbum ? np.album : np.artist))
            }
        } else if geometry.rows == 2 {
            // Two rows: a chaptered file shows its chapter instead of its title (the list showed the title).
            let text = np.chapter ?? np.title
            let top = np.overlay == .scrubbing ? b.cells(label) : marqueeCells(text, elapsedMS: elapsed, into: &b)
            b.write(row: 0, left: state + (state.isEmpty ? [] : [.char(" ")]) + top)
        }
        if let outputs = np.noOutput {
            renderNoOutput(outputs, np, elapsedMS: elapsed, into: &b)
            return
        }
        // Two rows have no room for the position: it takes the progress line's place now and then.
        if geometry.rows <= 2 && np.overlay == nil {
            b.mayChange(inMS: Self.untilPositionTurn(elapsedMS: elapsed))
        }
        if geometry.rows <= 2 && np.overlay == nil && Self.showsPositionInstead(elapsedMS: elapsed) {
            b.write(row: bottomRow, left: b.cells(label), right: modeIcons)
        } else {
            b.write(row: bottomRow, bottomLine(np, into: &b))
        }
    }

    /// No output can play: "No audio output" and which outputs take the progress line's place (on four
    /// rows and more, the two lines above the bottom one's; on fewer, they take turns every
    /// `alternateMS`). An overlay (the volume after a turn) still takes the bottom line.
    private func renderNoOutput(_ outputs: [String], _ np: NowPlayingView, elapsedMS: Int64, into b: inout FrameBuilder) {
        let bottomRow = geometry.rows - 1
        let which = outputs.isEmpty ? "All outputs off" : outputs.joined(separator: ", ")
        if geometry.rows >= 4 {
            b.write(row: bottomRow - 1, left: b.cells(Self.noOutputText))
            b.write(row: bottomRow, np.overlay == nil ? marqueeCells(which, elapsedMS: elapsedMS, into: &b) : bottomLine(np, into: &b))
            return
        }
        guard np.overlay == nil else {
            b.write(row: bottomRow, bottomLine(np, into: &b))
            return
        }
        b.mayChange(inMS: Self.untilNext(multipleOf: Self.alternateMS, elapsedMS: elapsedMS))
        let showWhich = (max(0, elapsedMS) / Self.alternateMS) % 2 == 1
        b.write(row: bottomRow, showWhich ? marqueeCells(which, elapsedMS: elapsedMS, into: &b) : b.cells(Self.noOutputText))
    }

    static let noOutputText = "No audio output"

    /// On 1–2 row displays the position shows for the last 4 s of every 12 s (the progress line otherwise).
    static func showsPositionInstead(elapsedMS: Int64) -> Bool {
        max(0, elapsedMS) % 12_000 >= 8_000
    }

    /// Milliseconds until the position and the progress line next take turns (at 8 s and 12 s of 12).
    static func untilPositionTurn(elapsedMS: Int64) -> Int64 {
        if elapsedMS < 0 { return -elapsedMS }
        let t = elapsedMS % 12_000
        return t < 8_000 ? 8_000 - t : 12_000 - t
    }

    /// Milliseconds until `elapsedMS` next reaches a multiple of `period`.
    static func untilNext(multipleOf period: Int64, elapsedMS: Int64) -> Int64 {
        if elapsedMS < 0 { return -elapsedMS }
        return period - elapsedMS % period
    }

    private func marqueeCells(_ text: String, elapsedMS: Int64, into b: inout FrameBuilder) -> [Frame.Cell] {
        let chars = b.chars(text)
        b.mayChange(inMS: marquee.millisecondsToNextStep(count: chars.count, width: geometry.columns, elapsedMS: elapsedMS))
        return marquee.window(chars, width: geometry.columns, elapsedMS: elapsedMS).map { .char($0) }
    }

    private func bottomLine(_ np: NowPlayingView, into b: inout FrameBuilder) -> [Frame.Cell] {
        switch np.overlay {
        case .volume(let v):
            return [b.glyph(.speaker), .char(" ")]
                + b.bar(fraction: Double(v) / 100, width: geometry.columns - 2)
        case .setting(let name, let value):
            return b.cells("\(name): \(value)")
        case .rating(let rating):
            return b.cells("Rating ") + b.stars(rating)
        case .scrubbing, nil:
            let left = b.cells(Self.clock(np.elapsedMS))
            let right = b.cells("-" + Self.clock(max(0, np.durationMS - np.elapsedMS)))
            let width = geometry.columns - left.count - right.count - 2
            guard width >= 3 else { return left + [.char(" ")] + right }
            let fraction = np.durationMS > 0 ? Double(np.elapsedMS) / Double(np.durationMS) : 0
            return left + [.char(" ")] + b.bar(fraction: fraction, width: width) + [.char(" ")] + right
        }
    }

    /// "m:ss", or "h:mm:ss" from an hour on.
    static func clock(_ ms: Int) -> String {
        let total = max(0, ms) / 1000
        let (h, m, s) = (total / 3600, (total / 60) % 60, total % 60)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }
}
