public import Foundation

/// Where the tests find the executables they run: built beside the running test bundle (so a Thread
/// Sanitizer build's tests run the sanitized binary), else `.build/debug` under the package root.
public enum BuiltProducts {
    public static func path(_ name: String, root: URL) -> String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return root.appendingPathComponent(".build/debug/\(name)").path
    }
}
