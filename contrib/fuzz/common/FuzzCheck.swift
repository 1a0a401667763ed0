// Shared by the fuzz targets 2–6 (compiled into each by contrib/fuzz/run.sh).

/// A target's invariant: on failure the process dies with `message` (the fuzzer saves the input as a crash).
/// `fatalError`, not `precondition`: an -O build drops a precondition's message.
@inline(__always)
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("fuzz check failed: \(message())") }
}
