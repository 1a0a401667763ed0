import ClickWheelTestKit
import Foundation
import NamedThreads
import Podcasts
import Testing

/// A download in another process killed with SIGKILL: no final file, the `.part` holds a prefix of the
/// episode, and the next download continues from it with Range. The child is this test binary running
/// `childDownload` alone (the test is skipped unless CW_PODCAST_CHILD names what to fetch).
@Suite(.serialized) struct KillDuringDownloadTests {
    static let childKey = "CW_PODCAST_CHILD"

    /// In the child only: downloads CW_PODCAST_CHILD's URL into its folder until killed.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childKey] != nil))
    func childDownload() async throws {
        let spec = ProcessInfo.processInfo.environment[Self.childKey]!.split(separator: " ").map(String.init)
        let http = PodcastHTTP(group: TestServer.group)
        _ = try? await EpisodeDownloader(http: http, reserveBytes: 0).download(spec[0], to: spec[1], name: "ep.mp3")
        try await http.shutdown()
    }

    @Test func killedProcessLeavesAPartThatIsResumed() async throws {
        try await FeedFetcherTests.withServer { server, http in
            let audio = audioBytes(3 << 20, seed: 11)
            try server.write("ep.mp3", audio)
            let folder = try scratchFolder()
            let part = folder + "/" + EpisodeDownloader.partName("ep.mp3")
            // The server sends 1.5 MiB then stalls: the downloader writes its first 1 MiB piece and waits.
            var environment = ProcessInfo.processInfo.environment
            environment[Self.childKey] = server.url("stall/ep.mp3?bytes=1572864") + " " + folder
            let child = try ChildProcess(
                URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().path,
                ["--testing-library", "swift-testing", "--filter", "KillDuringDownloadTests/childDownload"],
                environment: environment, output: .discard)
            // Until the first piece is on disk or the child is gone (a condition, not a time).
            let pid = child.pid
            let written = await NamedThread.run("kill-test-wait") { () -> Int in
                while true {
                    let size = (try? FileManager.default.attributesOfItem(atPath: part)[.size] as? Int) ?? 0
                    if size >= 1 << 20 { return size }
                    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
                    if stat.isEmpty || stat.contains(") Z ") { return size }
                    usleep(20_000)
                }
            }
            child.kill(SIGKILL)
            _ = child.wait()
            #expect(written >= 1 << 20)
            #expect(!FileManager.default.fileExists(atPath: folder + "/ep.mp3"), "no final file")
            let kept = try Data(contentsOf: URL(filePath: part))
            #expect(kept == audio.prefix(kept.count), "the part is a prefix of the episode")

            let outcome = try await EpisodeDownloader(http: http, reserveBytes: 0).download(server.url("files/ep.mp3"), to: folder, name: "ep.mp3")
            #expect(outcome.resumedFrom == Int64(kept.count))
            #expect(try Data(contentsOf: URL(filePath: outcome.path)) == audio)
            #expect(try await server.requests(http).last?.range == "bytes=\(kept.count)-")
        }
    }
}
