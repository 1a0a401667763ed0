import Foundation
import Library
import MPDProtocol

/// ClickWheel's podcast commands (MPD's own `subscribe` is its client-to-client channels): `podcastadd URL`,
/// `podcastlist`, `podcastdelete URL|ID`, `podcastupdate [URL|ID]`, `podcastkeep URL|ID [N]`. `idle podcast`
/// waits for a subscription or its episodes to change.
extension ControlCommands {
    /// `podcastadd URL`: subscribes (answers `id: N`; the same id when already subscribed). Not an http or
    /// https address: `ACK [2@0]`.
    static func podcastadd(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let podcasts = try podcastControl(ctx)
        let url = req.arguments[0].string
        guard SubscriptionStore.isFeedURL(url) else { throw .argument("Not an http or https URL: \(url)") }
        let id = try podcastCall { try podcasts.add(url) }
        w.field("id", id)
    }

    /// `podcastlist`: per subscription `feed`, `id`, `title` (once known), `episodes`, `new`, `keep` (when it
    /// has its own), `updated` (ISO 8601, UTC; once fetched) and `error` (when its last fetch failed).
    static func podcastlist(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let podcasts = try podcastControl(ctx)
        for s in try podcastCall({ try podcasts.list() }) {
            w.field("feed", s.url)
            w.field("id", s.id)
            if let title = s.title, !title.isEmpty { w.field("title", title) }
            w.field("episodes", s.episodes)
            w.field("new", s.new)
            if let keep = s.keep { w.field("keep", keep) }
            if let updated = s.updatedAt { w.field("updated", isoUTC(updated)) }
            if let error = s.error { w.field("error", error) }
        }
    }

    /// `podcastdelete URL|ID`: ends a subscription (downloaded files stay). None such: `ACK [50@0]`.
    static func podcastdelete(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let podcasts = try podcastControl(ctx)
        let what = req.arguments[0].string
        try podcastCall { try podcasts.delete(what) }
    }

    /// `podcastupdate [URL|ID]`: fetches one subscription (or all) now; answers at once, the result shows
    /// in `podcastlist` and as `changed: podcast`. None such: `ACK [50@0]`.
    static func podcastupdate(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let podcasts = try podcastControl(ctx)
        let what = req.arguments.first?.string
        try podcastCall { try podcasts.update(what) }
    }

    /// `podcastkeep URL|ID [N]`: how many of the subscription's newest episodes are kept downloaded, 0 to
    /// `maxKeep` (0: none; without N: the configuration's `keep` again). Not a number in range: `ACK [2@0]`;
    /// none such: `ACK [50@0]`.
    static func podcastkeep(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let podcasts = try podcastControl(ctx)
        let what = req.arguments[0].string
        var keep: Int?
        if req.arguments.count > 1 {
            let text = req.arguments[1].string
            guard let n = Int(text), (0...maxKeep).contains(n) else {
                throw .argument("Episodes to keep must be 0 to \(maxKeep): \(text)")
            }
            keep = n
        }
        try podcastCall { try podcasts.setKeep(what, keep) }
    }

    /// The most episodes one subscription may keep downloaded.
    static let maxKeep = 1000

    private static func podcastControl(_ ctx: MPDContext) throws(MPDError) -> any PodcastControl {
        guard let p = ctx.podcasts else { throw .system("No podcast service") }
        return p
    }

    /// Runs a port call, its failures as MPD errors: no such subscription (50), a bad URL (2), else 52.
    private static func podcastCall<T>(_ body: () throws -> T) throws(MPDError) -> T {
        do {
            return try body()
        } catch let failure as SubscriptionStore.Failure {
            switch failure {
            case .noSuchSubscription(let what): throw .noExist("No such subscription: \(what)")
            case .badURL(let url): throw .argument("Not an http or https URL: \(url)")
            }
        } catch {
            throw .system("\(error)")
        }
    }

    /// Unix seconds as ISO 8601 in UTC (`2026-11-29T01:02:03Z`).
    static func isoUTC(_ seconds: Int64) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
