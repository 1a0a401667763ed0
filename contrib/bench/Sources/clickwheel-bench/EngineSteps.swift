import ClickWheelCore
import Foundation

/// Wheel steps through Songs on the real SQLite library: the time from a step event to its finished
/// frame (`Engine.handle`, which reads rows through `LibraryStore` and renders), slow steps and fast
/// spins mixed as in the core's own benchmark, and the resident memory before and after.
func engineSteps(library: any LibraryReading, steps: Int) -> String {
    var engine = Engine(library: library, configuration: EngineConfiguration(geometry: DisplayGeometry(columns: 20, rows: 4)))
    var now = Timestamp.ms(1000)
    func press(_ button: Button) {
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
    press(.select)  // Music → Songs
    let before = residentKB()
    var samples: [Double] = []
    samples.reserveCapacity(steps)
    var direction = -1
    for i in 0..<steps {
        // Bursts of 48 fast steps (12 ms apart) every 200 steps, otherwise slow steps; reverse every 1,000.
        if i % 1000 == 0 { direction = -direction }
        now = now.adding(ms: i % 200 < 48 ? 12 : 300)
        let t = DispatchTime.now().uptimeNanoseconds
        _ = engine.handle(.wheel(direction, at: now))
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6)
    }
    let after = residentKB()
    samples.sort()
    return String(
        format: "engine over SQLite: %d steps through Songs, step → frame p50 %.3f ms, p99 %.3f ms, max %.3f ms; "
            + "RSS %d → %d KiB; final cursor %d",
        steps, samples[steps / 2], samples[steps * 99 / 100], samples[steps - 1], before, after, engine.top.cursor)
}

func residentKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return -1 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}
