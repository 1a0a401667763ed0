import ClickWheelCore
import Foundation
import Logging
import NIOPosix
import Synchronization
import Testing

@testable import WebRemote

/// The Podcasts panel's side of the WebSocket against a real socket on loopback: the list on admission
/// and on each change, a page's requests answered (done, or the failure's words), the list shown to every
/// browser after. The subscriptions here are kept in memory (`Subscriptions`, which checks addresses as
/// the store does); the real podcast service behind the panel, with a real feed on Python's
/// http.server, is contrib/ci/web/browser_test.py's part.
@Suite(.serialized) struct WebPodcastPanelTests {
    final class Subscriptions: WebPodcastActions {
        struct Bad: Error, CustomStringConvertible {
            var description: String
        }
        let feeds = Mutex<[WebPodcastFeed]>([])
        let updates = Mutex<[Int64?]>([])

        func list() throws -> [WebPodcastFeed] { feeds.withLock { $0 } }

        func add(_ url: String) throws {
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw Bad(description: "not an http or https address: \(url)")
            }
            feeds.withLock { f in
                guard !f.contains(where: { $0.url == url }) else { return }
                f.append(WebPodcastFeed(id: Int64(f.count + 1), url: url, title: nil, episodes: 0, new: 0, updated: nil, error: nil))
            }
        }

        func delete(_ id: Int64) throws {
            try feeds.withLock { f in
                guard let i = f.firstIndex(where: { $0.id == id }) else { throw Bad(description: "no such subscription: \(id)") }
                f.remove(at: i)
            }
        }

        func update(_ id: Int64?) throws { updates.withLock { $0.append(id) } }
    }

    /// A remote listening on loopback, with `podcasts` behind its Podcasts panel (nil: none).
    static func remote(podcasts: (any WebPodcastActions)? = nil) throws -> WebRemote {
        let options = WebRemoteOptions(
            host: "127.0.0.1", port: 0, password: nil, geometry: DisplayGeometry(columns: 16, rows: 2), charset: .utf8)
        let remote = WebRemote(
            options: options, eventLoop: MultiThreadedEventLoopGroup.singleton.next(), logger: Logger(label: "web-test"),
            podcasts: podcasts, input: { _ in }, artwork: { _ in nil })
        try remote.start()
        return remote
    }

    static func feeds(_ message: [String: Any]?) -> [[String: Any]]? { message?["feeds"] as? [[String: Any]] }

    @Test func thePanelSubscribesListsRefreshesAndRemoves() throws {
        let subs = Subscriptions()
        let remote = try Self.remote(podcasts: subs)
        defer { remote.stop() }
        let a = try WSTestClient(port: remote.port), b = try WSTestClient(port: remote.port)
        #expect(try a.upgrade() == 101 && b.upgrade() == 101)
        // Admitted: the list, empty (read once listening; a browser admitted before that read gets it when it comes).
        #expect(Self.feeds(a.read(type: "podcasts"))?.isEmpty == true)
        #expect(Self.feeds(b.read(type: "podcasts"))?.isEmpty == true)

        // A bad address: this page is told why; nothing is added.
        a.sendText(#"{"t":"podcast","op":"add","url":"feeds.example/rss"}"#)
        let refused = a.read(type: "podcast-done")
        #expect(refused?["op"] as? String == "add")
        #expect(refused?["error"] as? String == "not an http or https address: feeds.example/rss")
        #expect(subs.feeds.withLock { $0.isEmpty })

        // A good one: done for this page, and the new list for every page.
        a.sendText(#"{"t":"podcast","op":"add","url":"http://127.0.0.1:9/feed.xml"}"#)
        let done = a.read(type: "podcast-done")
        #expect(done?["op"] as? String == "add" && done?["error"] is NSNull)
        for c in [a, b] {
            let list = Self.feeds(c.read(type: "podcasts"))
            #expect(list?.count == 1 && list?.first?["url"] as? String == "http://127.0.0.1:9/feed.xml")
            #expect(list?.first?["title"] is NSNull && list?.first?["updated"] is NSNull)
        }

        // A fetch that finished elsewhere (the `podcast` idle change): the list again, with its state.
        subs.feeds.withLock {
            $0[0].title = "Tone \"Show\""
            $0[0].episodes = 3
            $0[0].new = 2
            $0[0].updated = 1_700_000_000
            $0[0].error = "HTTP 404"
        }
        remote.podcastsChanged()
        for c in [a, b] {
            let changed = Self.feeds(c.read(type: "podcasts"))?.first
            #expect(changed?["title"] as? String == "Tone \"Show\"" && changed?["episodes"] as? Int == 3)
            #expect(changed?["new"] as? Int == 2 && changed?["updated"] as? Int == 1_700_000_000)
            #expect(changed?["error"] as? String == "HTTP 404")
        }

        // Refresh one, refresh all; remove; remove what is gone (its failure's words).
        b.sendText(#"{"t":"podcast","op":"refresh","id":1}"#)
        #expect(b.read(type: "podcast-done")?["op"] as? String == "refresh")
        b.sendText(#"{"t":"podcast","op":"refresh"}"#)
        #expect(b.read(type: "podcast-done")?["op"] as? String == "refresh")
        #expect(subs.updates.withLock { $0 } == [1, nil])
        b.sendText(#"{"t":"podcast","op":"remove","id":1}"#)
        #expect(b.read(type: "podcast-done")?["error"] is NSNull)
        #expect(Self.feeds(a.read(type: "podcasts"))?.isEmpty == true)
        b.sendText(#"{"t":"podcast","op":"remove","id":1}"#)
        #expect(b.read(type: "podcast-done")?["error"] as? String == "no such subscription: 1")
    }

    @Test func withoutAPodcastServiceThePageIsToldSoAndABadRequestClosesItsSocket() throws {
        let remote = try Self.remote()
        defer { remote.stop() }
        let c = try WSTestClient(port: remote.port)
        #expect(try c.upgrade() == 101)
        #expect(c.read(type: "hello") != nil)
        c.sendText(#"{"t":"podcast","op":"refresh"}"#)
        let reply = c.readMessage()
        #expect(reply?["t"] as? String == "podcast-done" && reply?["error"] as? String == "no podcast service")
        for bad in [#"{"t":"podcast","op":"format"}"#, #"{"t":"podcast","op":"add"}"#, #"{"t":"podcast","op":"remove","id":"x"}"#] {
            let d = try WSTestClient(port: remote.port)
            #expect(try d.upgrade() == 101)
            #expect(d.read(type: "hello") != nil)
            d.sendText(bad)
            #expect(d.readMessage() == nil && d.lastClose == 1003, "\(bad)")
        }
    }
}
