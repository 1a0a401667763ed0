// One conditional GET of a feed: ETag and Last-Modified sent back, 304 answered without a body, gzip asked
// for and inflated (with a limit), redirects followed and a permanent one reported, a body larger than the
// cap aborted as it arrives (never buffered whole).
public import Foundation
import NIOCore
import NIOHTTP1

public struct FeedFetcher: Sendable {
    public enum Result: Sendable, Hashable {
        /// 304: the feed is unchanged since the ETag or date given.
        case notModified
        /// 200: the feed's bytes (inflated), its validators for the next fetch, the URL it finally came from,
        /// and whether every redirect on the way was permanent (301/308): then the caller stores `finalURL`.
        case fetched(data: Data, etag: String?, lastModified: String?, finalURL: String, permanentRedirect: Bool)
    }

    let http: PodcastHTTP

    public init(http: PodcastHTTP) {
        self.http = http
    }

    /// Fetches `url`. `etag` and `lastModified` are the validators of the last fetch (nil the first time).
    /// Throws `FetchError`: bad URL, redirect loop or too many, an HTTP error status, over `cap` bytes (as
    /// sent or as inflated), no answer within `timeout`, a network error, cancellation.
    public func fetch(
        _ url: String, etag: String? = nil, lastModified: String? = nil, cap: Int = FeedParser.defaultCap,
        timeout: Duration = .seconds(60)
    ) async throws(FetchError) -> Result {
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5")
        headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        if let etag, !etag.isEmpty { headers.add(name: "If-None-Match", value: etag) }
        if let lastModified, !lastModified.isEmpty { headers.add(name: "If-Modified-Since", value: lastModified) }
        let (seconds, attoseconds) = timeout.components
        let deadline = NIODeadline.now() + .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let followed = try await http.get(url, headers: headers, deadline: deadline)
        let response = followed.response
        switch response.status.code {
        case 304: return .notModified
        case 200..<300: break
        default: throw .httpStatus(Int(response.status.code), response.status.reasonPhrase)
        }
        // A declared length over the cap ends it before any body; a compressed one is checked as it inflates.
        if response.headers.first(name: "Content-Encoding") == nil,
            let declared = response.headers.first(name: "Content-Length").flatMap({ Int64($0) }), declared > Int64(cap)
        {
            throw .tooLarge(cap: Int64(cap))
        }
        var data = Data()
        do {
            for try await chunk in response.body {
                guard data.count + chunk.readableBytes <= cap else { throw FetchError.tooLarge(cap: Int64(cap)) }
                data.append(contentsOf: chunk.readableBytesView)
            }
        } catch {
            let failure = FetchError(error)
            if case .tooLarge = failure { throw .tooLarge(cap: Int64(cap)) }
            throw failure
        }
        return .fetched(
            data: data, etag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified"),
            finalURL: followed.url, permanentRedirect: followed.permanent)
    }
}
