import Foundation

/// Runs a program and collects its exit status and output (the tests drive the real `clickwheel`).
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

@discardableResult
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    if let environment { p.environment = environment }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    // Read both pipes before waiting, so a chatty child never blocks on a full pipe.
    let group = DispatchGroup()
    group.enter()
    let errHandle = err.fileHandleForReading
    let box = DataBox()
    DispatchQueue.global().async {
        box.set(errHandle.readDataToEndOfFile())
        group.leave()
    }
    let stdoutBytes = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    let stderrBytes = box.get()
    p.waitUntilExit()
    return ProcessResult(
        status: p.terminationStatus, stdout: String(decoding: stdoutBytes, as: UTF8.self),
        stderr: String(decoding: stderrBytes, as: UTF8.self))
}

/// A thread-safe holder for data read on another queue.
final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
