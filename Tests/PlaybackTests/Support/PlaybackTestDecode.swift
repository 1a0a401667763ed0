@testable import Playback

/// A whole-file decode for tests that import `Playback` without `@testable` elsewhere in the file.
enum PlaybackTestDecode {
    static func samples(_ path: String) throws -> [Int16] { try Decode.file(path).samples }
}
