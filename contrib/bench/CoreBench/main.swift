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

func residentKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return -1 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

let words = ["Blue", "Night", "Electric", "Summer", "Heart", "Road", "Dream", "Fire", "Rain", "Echo", "Zero", "Quiet"]
let tracks = (0..<trackCount).map { i in
    FixtureTrack(
        title: "\(words[i % words.count]) \(words[(i / 12) % words.count]) \(i)", artist: "Artist \(i % 5000)",
        album: "Album \(i % 9000)", trackNumber: i % 12 + 1)
}
let library = InMemoryLibrary(tracks: tracks)
_ = try library.count(of: .songs)  // builds the twin's sorted list outside the measurement

var engine = Engine(
    library: library, configuration: EngineConfiguration(geometry: DisplayGeometry(columns: 20, rows: 4)))
var now = Timestamp.ms(1000)
@MainActor func press(_ button: Button) {
    now = now.adding(ms: 50)
    _ = engine.handle(.button(button, .down, at: now))
    now = now.adding(ms: 50)
    _ = engine.handle(.button(button, .up, at: now))
}
_ = engine.handle(.tick(now))
press(.select)
for _ in 0..<3 {
    now = now.adding(ms: 300)
    _ = engine.handle(.wheel(1, at: now))
}
press(.select)

let memoryBefore = residentKB()
let clock = ContinuousClock()
var samples: [Duration] = []
samples.reserveCapacity(stepCount)
var direction = -1  // flipped to +1 (down the list) at step 0
for i in 0..<stepCount {
    // Bursts of 48 fast steps (12 ms apart) every 200 steps, otherwise slow steps; reverse every 1,000.
    if i % 1000 == 0 { direction = -direction }
    now = now.adding(ms: i % 200 < 48 ? 12 : 300)
    let event = Event.wheel(direction, at: now)
    let start = clock.now
    let effects = engine.handle(event)
    samples.append(clock.now - start)
    precondition(!effects.isEmpty || engine.top.cursor == 0 || engine.top.cursor >= trackCount - 1)
}
let memoryAfter = residentKB()
samples.sort()
func ms(_ d: Duration) -> String {
    let v = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    return String(format: "%.3f", v)
}
print(
    """
    {"tracks": \(trackCount), "steps": \(stepCount), "p50_ms": \(ms(samples[samples.count / 2])), \
    "p99_ms": \(ms(samples[samples.count * 99 / 100])), "max_ms": \(ms(samples[samples.count - 1])), \
    "rss_kb_before": \(memoryBefore), "rss_kb_after": \(memoryAfter), "final_cursor": \(engine.top.cursor)}
    """)
