import ClickWheelConfig
import Foundation
import Testing

/// The `podcasts:` section: feeds, refresh, keep, max_episode_mb, delete_played_after_days; each checked,
/// each mistake said with its place.
@Suite struct PodcastConfigTests {
    func load(_ yaml: String, env: [String: String] = [:]) throws(ConfigErrors) -> ServiceConfig {
        let path = "/tmp/cw-podcfg-\(UUID().uuidString.prefix(8)).yaml"
        defer { unlink(path) }
        try? yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return try ConfigLoader(environment: ["HOME": "/home/pi"].merging(env) { $1 }).load(file: path)
    }

    func errors(_ yaml: String) -> [String] {
        do {
            _ = try load(yaml)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func defaultsAndEveryKey() throws {
        let d = try load("volume: 40\n").podcasts
        #expect(d.feeds.isEmpty && d.refreshSeconds == 3600 && d.keep == 3 && d.deletePlayedAfterDays == 0)
        let p = try load("""
            podcasts:
              feeds:
                - https://example.org/a.xml
                - http://127.0.0.1:8000/b.rss
              refresh: 30m
              keep: 5
              max_episode_mb: 200
              delete_played_after_days: 14
            """).podcasts
        #expect(p.feeds == ["https://example.org/a.xml", "http://127.0.0.1:8000/b.rss"])
        #expect(p.refreshSeconds == 1800 && p.keep == 5 && p.maxEpisodeMB == 200 && p.deletePlayedAfterDays == 14)
        #expect(try load("podcasts:\n  refresh: 2h\n").podcasts.refreshSeconds == 7200)
        #expect(try load("volume: 40\n", env: ["CLICKWHEEL_PODCASTS_KEEP": "7"]).podcasts.keep == 7)
    }

    @Test func mistakesSayWhereAndWhat() {
        let e = errors("podcasts:\n  refresh: soon\n  keep: 0\n  feeds: [ftp://x/y]\n  kep: 3\n")
        let base = e.map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? $0 }
        #expect(base.contains("'podcasts.refresh' must be a time from 1m to 7d, e.g. 1h, 30m or 90s"), "\(e)")
        #expect(base.contains("'podcasts.keep' must be 1–100 (episodes per show)"), "\(e)")
        #expect(base.contains("'podcasts.feeds' 'ftp://x/y' is not an http or https address"), "\(e)")
        #expect(e.contains { $0.contains("unknown key 'podcasts.kep' (did you mean 'podcasts.keep'?)") }, "\(e)")
        #expect(errors("podcasts: 3\n").first?.hasSuffix("'podcasts' must be a mapping of keys to values") == true)
    }
}
