import ArgumentParser
import ClickWheelConfig
import Foundation

/// How a command fails, as the command line's contract says: a usage or configuration mistake is a
/// `ValidationError` (exit 64, with the place of the mistake); a runtime failure is one line on
/// stderr and exit 1.
enum Failure {
    /// Prints `command: message` on stderr; throw what it returns (exit status 1).
    static func exit(command: String = "clickwheel", _ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("\(command): \(message)\n".utf8))
        return ExitCode.failure
    }

    /// The configuration of a command (`ConfigLoader.resolve`): a mistake in it is a usage error.
    static func configuration(
        explicit: String?, flags: [String: String] = [:]
    ) throws(ValidationError) -> (config: ServiceConfig, file: String?) {
        do {
            return try ConfigLoader.resolve(explicit: explicit, flags: flags)
        } catch {
            throw ValidationError("the configuration is not valid:\n\(error)")
        }
    }
}
