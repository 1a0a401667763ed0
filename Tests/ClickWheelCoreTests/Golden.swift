import ClickWheelCore
import ClickWheelTestKit
import Foundation
import Testing

/// The core's golden frame files under Golden/ (see `GoldenFrames`).
enum Golden {
    static let files = GoldenFrames(directory: URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Golden"))

    static var updating: Bool { GoldenFrames.updating }

    static func draw(_ frame: Frame?) -> String { GoldenFrames.draw(frame) }

    static func check(_ text: String, name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        files.check(text, name: name, sourceLocation: sourceLocation)
    }
}
