import ClickWheelTestKit
import Foundation
import Testing

extension PodcastServiceTests {
    /// A feed that moved (a 301 from `/old.xml` to `/feed.xml`, Python's http.server): after the fetch
    /// `podcastlist` shows the new address, and the next update asks the new address only.
    @Test(.enabled(if: toolsInstalled, "lame, sox or mpc is not installed (contrib/ci/install-deps.sh)"))
    func aFeedMovedPermanentlyIsFollowedToItsNewAddress() throws {
        let root = "/tmp/cw-podmoved-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let host = try Host(root + "/host")
        let s = try Service(root + "/service")

        #expect(s.command("podcastadd \(host.url)/old.xml") == ["id: 1"])
        #expect(FullServiceTests.poll(seconds: 30) { s.feeds().first?["feed"] == "\(host.url)/feed.xml" },
                "\(s.feeds()); requests: \(host.requests())")
        let feed = s.feeds().first ?? [:]
        #expect(feed["id"] == "1" && feed["title"] == "Test Show" && feed["error"] == nil, "\(feed)")
        #expect(host.requests().prefix(2) == ["GET /old.xml 301", "GET /feed.xml 200"], "\(host.requests())")
        // By its new address or its id, one subscription; the old address names none now.
        #expect(s.command("podcastadd \(host.url)/feed.xml") == ["id: 1"])
        #expect(s.command("podcastupdate \(host.url)/old.xml").first?.hasPrefix("ACK [50@0]") == true)

        // The next update asks the new address (a conditional request: 304), not the old one.
        let before = host.requests().count
        #expect(s.command("podcastupdate 1") == [])
        #expect(FullServiceTests.poll(seconds: 20) { host.requests().dropFirst(before).contains("GET /feed.xml 304") },
                "\(host.requests())")
        #expect(!host.requests().dropFirst(before).contains { $0.hasPrefix("GET /old.xml") }, "\(host.requests())")
    }
}
