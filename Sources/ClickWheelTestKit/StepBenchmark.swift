public import ClickWheelCore
import Foundation

/// The step-to-frame benchmark shared by the core's (in-memory twin) and the library's (SQLite)
/// benchmarks: Music → Songs, then `steps` wheel steps, bursts of 48 fast steps (12 ms apart) every
/// 200 steps and slow ones otherwise, reversing every 1,000; each `Engine.handle` is timed.
public enum StepBenchmark {
    public struct Result: Sendable {
        /// Milliseconds per step, sorted.
        public var samples: [Double]
        public var finalCursor: Int
        public var p50: Double { samples[samples.count / 2] }
        public var p99: Double { samples[samples.count * 99 / 100] }
        public var max: Double { samples[samples.count - 1] }
    }

    public static func run(library: any LibraryReading, steps: Int) -> Result {
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
        var samples: [Double] = []
        samples.reserveCapacity(steps)
        var direction = -1
        for i in 0..<steps {
            if i % 1000 == 0 { direction = -direction }
            now = now.adding(ms: i % 200 < 48 ? 12 : 300)
            let t = DispatchTime.now().uptimeNanoseconds
            _ = engine.handle(.wheel(direction, at: now))
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6)
        }
        return Result(samples: samples.sorted(), finalCursor: engine.top.cursor)
    }

    /// This process's resident memory, KiB (from /proc).
    public static func residentKB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
}
