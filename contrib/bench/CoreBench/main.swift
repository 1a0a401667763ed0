// The core's share of the step-to-frame budget: 10,000 wheel steps through Songs of a generated
// 100,000-track library (the in-memory twin, so SQLite is not measured here), slow steps and fast
// spins mixed. Prints p50/p99/max of `Engine.handle` per step and the resident memory before and
// after. Run: swift run -c release clickwheel-core-bench [tracks] [steps]
import ClickWheelCore
import ClickWheelTestKit
import Foundation

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let trackCount = arguments.first ?? 100_000
let stepCount = arguments.dropFirst().first ?? 10_000

let words = ["Blue", "Night", "Electric", "Summer", "Heart", "Road", "Dream", "Fire", "Rain", "Echo", "Zero", "Quiet"]
let tracks = (0..<trackCount).map { i in
    FixtureTrack(
        title: "\(words[i % words.count]) \(words[(i / 12) % words.count]) \(i)", artist: "Artist \(i % 5000)",
        album: "Album \(i % 9000)", trackNumber: i % 12 + 1)
}
let library = InMemoryLibrary(tracks: tracks)
_ = try library.count(of: .songs)  // builds the twin's sorted list outside the measurement

let memoryBefore = StepBenchmark.residentKB()
let result = StepBenchmark.run(library: library, steps: stepCount)
let memoryAfter = StepBenchmark.residentKB()
print(
    String(
        format: "{\"tracks\": %d, \"steps\": %d, \"p50_ms\": %.3f, \"p99_ms\": %.3f, \"max_ms\": %.3f, "
            + "\"rss_kb_before\": %d, \"rss_kb_after\": %d, \"final_cursor\": %d}",
        trackCount, stepCount, result.p50, result.p99, result.max, memoryBefore, memoryAfter, result.finalCursor))
