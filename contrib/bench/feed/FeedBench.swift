// The feed parser's time on one document: FeedParser.parse of the file's bytes, `runs` times after two
// warm-up parses; prints one JSON line (median, min, items). Built by contrib/bench/feed_bench.py with
// swiftc -O together with Sources/Podcasts/Feed (one module, no SwiftPM: the module's fetch half would
// pull AsyncHTTPClient and its TLS stack into a release build the measurement does not need).
import Foundation

@main
struct FeedBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            print("usage: feed-bench FILE [RUNS]")
            return
        }
        let data = try Data(contentsOf: URL(filePath: arguments[1]))
        let runs = arguments.count > 2 ? Int(arguments[2]) ?? 50 : 50
        var items = 0
        for _ in 0..<2 { items = try FeedParser.parse(data).items.count }
        var times: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            let feed = try FeedParser.parse(data)
            let elapsed = ContinuousClock.now - start
            items = feed.items.count
            let (seconds, attoseconds) = elapsed.components
            times.append(Double(seconds) * 1000 + Double(attoseconds) / 1e15)
        }
        times.sort()
        print(
            "{\"bytes\": \(data.count), \"items\": \(items), \"runs\": \(runs), \"median_ms\": \(times[times.count / 2]), "
                + "\"min_ms\": \(times[0])}")
    }
}
