import ClickWheelTestKit
import Foundation

/// Runs a program and collects its exit status and output (the tests drive the real `clickwheel`).
@discardableResult
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> ChildProcess.Result {
    try ChildProcess.run(executable, arguments, environment: environment)
}
