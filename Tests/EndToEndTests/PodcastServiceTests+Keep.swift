import ClickWheelTestKit
import Foundation
import Testing

extension PodcastServiceTests {
    /// A subscription's own number of episodes kept downloaded (`podcastkeep`), over the configuration's
    /// `keep`: raised, the episodes now wanted are downloaded; without a number, the configured one again.
    @Test(.enabled(if: toolsInstalled, "lame, sox or mpc is not installed (contrib/ci/install-deps.sh)"))
    func aSubscriptionKeepsItsOwnNumberOfEpisodes() throws {
        let root = "/tmp/cw-podkeep-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let host = try Host(root + "/host")
        let s = try Service(root + "/service", config: "podcasts:\n  keep: 1\n")
        let episodes = { (try? s.mpc("ls", "Podcasts/Test Show"))?.split(separator: "\n").map(String.init) ?? [] }

        #expect(s.command("podcastadd \(host.url)/feed.xml") == ["id: 1"])
        #expect(FullServiceTests.poll(seconds: 60) { episodes().count == 1 }, "\(episodes()); \(host.requests())")
        #expect(s.feeds().first?["keep"] == nil, "\(s.feeds())")

        // Bad input, MPD's conventions: not a number in range (2), no such subscription (50).
        #expect(s.command("podcastkeep 1 many").first?.hasPrefix("ACK [2@0] {podcastkeep}") == true)
        #expect(s.command("podcastkeep 1 -1").first?.hasPrefix("ACK [2@0] {podcastkeep}") == true)
        #expect(s.command("podcastkeep 99 2").first?.hasPrefix("ACK [50@0] {podcastkeep}") == true)
        #expect(s.command("commands").contains("command: podcastkeep"))

        // Three of this one: the two next newest arrive.
        #expect(s.command("podcastkeep \(host.url)/feed.xml 3") == [])
        #expect(s.feeds().first?["keep"] == "3", "\(s.feeds())")
        #expect(FullServiceTests.poll(seconds: 60) { episodes().count == 3 }, "\(episodes()); \(host.requests())")
        #expect(!host.requests().contains("GET /ep1.mp3 200"), "the oldest stays on the host: \(host.requests())")

        // Without a number: the configuration's again (nothing downloaded is deleted by it).
        #expect(s.command("podcastkeep 1") == [])
        #expect(s.feeds().first?["keep"] == nil, "\(s.feeds())")
        #expect(episodes().count == 3)
    }
}
