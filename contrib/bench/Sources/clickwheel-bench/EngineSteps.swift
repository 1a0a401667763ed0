import ClickWheelCore
import ClickWheelTestKit
import Foundation

/// Wheel steps through Songs on the real SQLite library (`StepBenchmark`): the time from a step event to
/// its finished frame, which reads rows through `LibraryStore`, and the resident memory around it.
func engineSteps(library: any LibraryReading, steps: Int) -> String {
    let before = StepBenchmark.residentKB()
    let r = StepBenchmark.run(library: library, steps: steps)
    let after = StepBenchmark.residentKB()
    return String(
        format: "engine over SQLite: %d steps through Songs, step → frame p50 %.3f ms, p99 %.3f ms, max %.3f ms; "
            + "RSS %d → %d KiB; final cursor %d",
        steps, r.p50, r.p99, r.max, before, after, r.finalCursor)
}
