import ClickWheelTestKit
import Foundation
import Testing

extension PodcastServiceTests {
    /// The goal for a refresh: fifty subscribed feeds that did not change cost fifty conditional
    /// requests, each answered 304 (no body, so nothing to parse or store), and no other request.
    @Test(.enabled(if: toolsInstalled, "lame, sox or mpc is not installed (contrib/ci/install-deps.sh)"))
    func fiftyUnchangedFeedsCostFiftyConditionalRequests() throws {
        let root = "/tmp/cw-podfifty-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let host = try Host(root + "/host")
        let s = try Service(root + "/service")
        let urls = (1...50).map { "\(host.url)/shows/\($0).xml" }
        for (i, url) in urls.enumerated() {
            #expect(s.command("podcastadd \(url)") == ["id: \(i + 1)"])
        }

        // Each is fetched once as it is added: a 200 with the feed and its ETag (the server logs a request
        // after answering it, so both the list and the log are waited for).
        let firstFetches = Set((1...50).map { "GET /shows/\($0).xml 200" })
        let fetched = { (feeds: [[String: String]]) in feeds.count == 50 && feeds.allSatisfy { $0["updated"] != nil } }
        #expect(FullServiceTests.poll(seconds: 60) { fetched(s.feeds()) && Set(host.requests()) == firstFetches },
                "\(s.feeds().prefix(3)); requests: \(host.requests())")
        #expect(host.requests().count == 50, "\(host.requests().filter { !$0.hasSuffix(" 200") })")
        #expect(s.feeds().map { $0["title"] ?? "" } == (1...50).map { "Show \($0)" })

        // A refresh of all fifty, unchanged: fifty requests, all conditional and answered 304.
        let before = host.requests().count
        #expect(s.command("podcastupdate") == [])
        #expect(FullServiceTests.poll(seconds: 60) { host.requests().count - before >= 50 }, "\(host.requests().dropFirst(before))")
        // Anything more would come at once: the service finished each feed when its 304 was logged.
        Thread.sleep(forTimeInterval: 0.5)
        let refresh = host.requests().dropFirst(before)
        #expect(refresh.count == 50, "\(refresh)")
        #expect(Set(refresh) == Set((1...50).map { "GET /shows/\($0).xml 304" }), "\(refresh)")
        #expect(s.feeds().allSatisfy { $0["error"] == nil }, "\(s.feeds().filter { $0["error"] != nil })")
    }
}
