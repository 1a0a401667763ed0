import Foundation
import NIOCore
import Podcasts
import Testing

/// FeedFetcher against a real HTTP server on 127.0.0.1 (Resources/podcast_server.py).
@Suite(.serialized) struct FeedFetcherTests {
    static func withServer(readTimeout: TimeAmount = .seconds(30), _ body: (TestServer, PodcastHTTP) async throws -> Void) async throws {
        let server = try await TestServer.start()
        let http = PodcastHTTP(group: TestServer.group, readTimeout: readTimeout, maxRedirects: 5)
        do {
            try await body(server, http)
        } catch {
            try? await http.shutdown()
            server.stop()
            throw error
        }
        try await http.shutdown()
        server.stop()
    }

    static func feed(_ titles: [String]) -> String {
        var out = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Live</title>"
        for (n, title) in titles.enumerated().reversed() {
            out += "<item><guid>g\(n)</guid><title>\(title)</title><enclosure url=\"http://e/\(n).mp3\" type=\"audio/mpeg\"/></item>"
        }
        return out + "</channel></rss>"
    }

    @Test func newEpisodeBetweenTwoFetchesAnd304CostsNoBody() async throws {
        try await Self.withServer { server, http in
            let fetcher = FeedFetcher(http: http)
            try server.write("feed.xml", Self.feed(["one"]))
            guard case .fetched(let data, let etag, let modified, let final, let permanent) = try await fetcher.fetch(server.url("files/feed.xml")) else {
                Issue.record("first fetch")
                return
            }
            #expect(etag != nil && modified != nil)
            #expect(final == server.url("files/feed.xml") && !permanent)
            #expect(try FeedParser.parse(data).items.map(\.title) == ["one"])

            // Unchanged: 304, no body.
            let again = try await fetcher.fetch(server.url("files/feed.xml"), etag: etag, lastModified: modified)
            #expect(again == .notModified)
            let seen = try await server.requests(http)
            #expect(seen.last?.status == 304 && seen.last?.sent == 0 && seen.last?.ifNoneMatch == etag)

            // A new episode: the old ETag no longer matches.
            try server.write("feed.xml", Self.feed(["one", "two"]))
            guard case .fetched(let newer, let etag2, _, _, _) = try await fetcher.fetch(server.url("files/feed.xml"), etag: etag, lastModified: modified) else {
                Issue.record("a changed feed is fetched")
                return
            }
            #expect(etag2 != etag)
            #expect(try FeedParser.parse(newer).items.map(\.title) == ["two", "one"])
        }
    }

    @Test func permanentRedirectIsReportedTemporaryIsNot() async throws {
        try await Self.withServer { server, http in
            let fetcher = FeedFetcher(http: http)
            try server.write("feed.xml", Self.feed(["a"]))
            guard case .fetched(_, _, _, let final, let permanent) = try await fetcher.fetch(server.url("r301/r301/files/feed.xml")) else {
                Issue.record("301 chain")
                return
            }
            #expect(final == server.url("files/feed.xml"))
            #expect(permanent)
            guard case .fetched(_, _, _, let final2, let permanent2) = try await fetcher.fetch(server.url("r301/r302/files/feed.xml")) else {
                Issue.record("301 then 302")
                return
            }
            #expect(final2 == server.url("files/feed.xml"))
            #expect(!permanent2, "a temporary hop on the way: keep the stored URL")
        }
    }

    @Test func redirectLoopAndTooManyRedirects() async throws {
        try await Self.withServer { server, http in
            let fetcher = FeedFetcher(http: http)
            try server.write("feed.xml", Self.feed(["a"]))
            await #expect(throws: FetchError.redirectLoop(server.url("loop/a"))) { try await fetcher.fetch(server.url("loop/a")) }
            await #expect(throws: FetchError.tooManyRedirects(5)) { try await fetcher.fetch(server.url("chain/9")) }
            guard case .fetched = try await fetcher.fetch(server.url("chain/4")) else {
                Issue.record("five hops are allowed")
                return
            }
        }
    }

    @Test func gzipIsDecoded() async throws {
        try await Self.withServer { server, http in
            let text = FeedSamples.big(50)
            try server.write("feed.xml", text)
            guard case .fetched(let data, _, _, _, _) = try await FeedFetcher(http: http).fetch(server.url("gz/feed.xml")) else {
                Issue.record("gzip fetch")
                return
            }
            #expect(data == Data(text.utf8))
            let seen = try await server.requests(http)
            #expect(seen.last.map { $0.sent < text.utf8.count / 3 } == true, "it came compressed")
        }
    }

    @Test func oversizedFeedIsAbortedPlainAndCompressed() async throws {
        try await Self.withServer { server, http in
            let fetcher = FeedFetcher(http: http)
            try server.write("feed.xml", FeedSamples.big(400))
            await #expect(throws: FetchError.tooLarge(cap: 10_000)) { try await fetcher.fetch(server.url("files/feed.xml"), cap: 10_000) }
            await #expect(throws: FetchError.tooLarge(cap: 10_000)) { try await fetcher.fetch(server.url("gz/feed.xml"), cap: 10_000) }
        }
    }

    @Test func badAnswersAreClearErrors() async throws {
        try await Self.withServer(readTimeout: .seconds(1)) { server, http in
            let fetcher = FeedFetcher(http: http)
            try server.write("feed.xml", Self.feed(["a"]))
            await #expect(throws: FetchError.httpStatus(404, "Not Found")) { try await fetcher.fetch(server.url("files/missing.xml")) }
            await #expect(throws: FetchError.timedOut) { try await fetcher.fetch(server.url("slow/feed.xml")) }
            await #expect(throws: FetchError.badURL("ftp://x/feed")) { try await fetcher.fetch("ftp://x/feed") }
            // Fetched fine, but not a feed: the parser's error.
            guard case .fetched(let html, _, _, _, _) = try await fetcher.fetch(server.url("html/feed.xml")) else { return }
            #expect(throws: FeedError.notAFeed(root: "html")) { try FeedParser.parse(html) }
            // Nothing listening: the refusal itself, with the address, not a timeout (the connection is not
            // retried until the deadline; the service retries the feed with its backoff). A minute's deadline,
            // so that a retry would show as `.timedOut` only on a machine stalled for that long.
            await #expect(throws: FetchError.network("cannot connect to 127.0.0.1:1: Connection refused")) {
                try await fetcher.fetch("http://127.0.0.1:1/feed", timeout: .seconds(60))
            }
        }
    }
}
