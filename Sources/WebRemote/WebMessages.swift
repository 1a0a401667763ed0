import ClickWheelCore
import Foundation

/// The WebSocket protocol between the page and the server: JSON text messages, one object each, with a
/// type in `t`.
///
/// Server → page: `auth` (give the password), `hello` (admitted: the art token), `frame` (the LCD),
/// `np` (Now Playing), `denied`, `podcasts` (`feeds`: the subscriptions and their state), `podcast-done`
/// (`op`, and `error` when it failed: the answer to this page's own podcast request). Page → server:
/// `auth`, `wheel` (`deg`: a raw angle delta), `button` (`b`: menu, select, play, next, prev; `p`: down or
/// up), `podcast` (`op`: add with `url`, remove with `id`, refresh with `id` or without for every feed).
enum WebMessages {
    /// The frame as the page draws it: rows of text (glyph cells as their Unicode stand-ins, so the
    /// rows read as `screen` prints them), the glyph cells with their 5×8 bitmaps, the size, charset and
    /// backlight.
    static func frame(_ frame: Frame, charset: TextCharset, backlight: Bool, seq: UInt64) -> String {
        var out = "{\"t\":\"frame\",\"seq\":\(seq),\"cols\":\(frame.columns),\"rows\":\(frame.rows)"
        out += ",\"charset\":\"\(charset.rawValue)\",\"backlight\":\(backlight),\"lines\":["
        out += frame.lines.map(quote).joined(separator: ",")
        out += "],\"glyphs\":["
        var first = true
        for r in 0..<frame.rows {
            for c in 0..<frame.columns {
                guard case .glyph(let slot) = frame[r, c], Int(slot) < frame.glyphs.count else { continue }
                let bits = frame.glyphs[Int(slot)].bitmap.map(String.init).joined(separator: ",")
                out += (first ? "" : ",") + "[\(r),\(c),[\(bits)]]"
                first = false
            }
        }
        return out + "]}"
    }

    static func nowPlaying(_ np: WebNowPlaying, artToken: String?) -> String {
        var art = "null"
        if let id = np.trackID, np.hasArtwork { art = quote("/art/\(id)" + (artToken.map { "?t=\($0)" } ?? "")) }
        return "{\"t\":\"np\",\"state\":\"\(np.state.rawValue)\",\"title\":\(quote(np.title)),\"artist\":\(quote(np.artist))"
            + ",\"album\":\(quote(np.album)),\"elapsed\":\(np.elapsedMS),\"duration\":\(np.durationMS)"
            + ",\"volume\":\(np.volume),\"art\":\(art)}"
    }

    /// The subscriptions, in the order they were added.
    static func podcasts(_ feeds: [WebPodcastFeed]) -> String {
        let items = feeds.map { f in
            "{\"id\":\(f.id),\"url\":\(quote(f.url)),\"title\":\(f.title.map(quote) ?? "null"),\"episodes\":\(f.episodes)"
                + ",\"new\":\(f.new),\"updated\":\(f.updated.map(String.init) ?? "null"),\"error\":\(f.error.map(quote) ?? "null")}"
        }
        return "{\"t\":\"podcasts\",\"feeds\":[" + items.joined(separator: ",") + "]}"
    }

    /// The answer to a page's podcast request: done, or why not.
    static func podcastDone(_ request: PodcastRequest, error: String?) -> String {
        "{\"t\":\"podcast-done\",\"op\":\"\(request.op)\",\"error\":\(error.map(quote) ?? "null")}"
    }

    /// A JSON string literal.
    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// What a page may send.
    enum Incoming: Equatable {
        case auth(String)
        case wheel(Double)
        case button(Button, ButtonPhase)
        case podcast(PodcastRequest)
    }

    /// What the Podcasts panel asks for.
    enum PodcastRequest: Equatable, Sendable {
        case add(String)
        case remove(Int64)
        /// One feed, or every feed (nil).
        case refresh(Int64?)

        var op: String {
            switch self {
            case .add: "add"
            case .remove: "remove"
            case .refresh: "refresh"
            }
        }
    }

    private struct Raw: Decodable {
        var t: String
        var deg: Double?
        var b: String?
        var p: String?
        var password: String?
        var op: String?
        var url: String?
        var id: Int64?
    }

    static let buttons: [String: Button] = [
        "menu": .menu, "select": .select, "play": .playPause, "next": .next, "prev": .previous,
    ]

    /// Reads one message; nil when it is not one of ours (the socket is then closed).
    static func parse(_ bytes: [UInt8]) -> Incoming? {
        guard let raw = try? JSONDecoder().decode(Raw.self, from: Data(bytes)) else { return nil }
        switch raw.t {
        case "auth": return raw.password.map { .auth($0) }
        case "wheel": return raw.deg.map { .wheel($0) }
        case "button":
            guard let b = raw.b.flatMap({ buttons[$0] }) else { return nil }
            switch raw.p {
            case "down": return .button(b, .down)
            case "up": return .button(b, .up)
            default: return nil
            }
        case "podcast":
            switch raw.op {
            case "add": return raw.url.map { .podcast(.add($0)) }
            case "remove": return raw.id.map { .podcast(.remove($0)) }
            case "refresh": return .podcast(.refresh(raw.id))
            default: return nil
            }
        default: return nil
        }
    }
}
