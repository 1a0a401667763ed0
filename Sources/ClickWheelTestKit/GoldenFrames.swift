public import ClickWheelCore
public import Foundation
public import Testing

/// Golden frame files: compared byte for byte, rewritten when `CLICKWHEEL_UPDATE_GOLDEN=1`.
/// Shared by every test target that looks at what a person sees on the display.
public struct GoldenFrames: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    public static var updating: Bool { ProcessInfo.processInfo.environment["CLICKWHEEL_UPDATE_GOLDEN"] == "1" }

    /// A frame drawn in a box, followed by its glyph table.
    public static func draw(_ frame: Frame?) -> String {
        guard let frame else { return "(no frame)\n" }
        let edge = "+" + String(repeating: "-", count: frame.columns) + "+\n"
        var out = edge
        for line in frame.lines { out += "|\(line)|\n" }
        out += edge
        if !frame.glyphs.isEmpty {
            out += "glyphs: " + frame.glyphs.enumerated().map { "\($0.offset)=\($0.element)" }.joined(separator: " ")
            out += "\n"
        }
        return out
    }

    /// Compares `text` with the golden file `name`, or writes it there when updating; a mismatch leaves
    /// `name.actual` beside it.
    public func check(_ text: String, name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory.appending(path: name)
        if Self.updating {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            #expect(throws: Never.self) { try text.write(to: url, atomically: true, encoding: .utf8) }
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing golden \(name): run with CLICKWHEEL_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        if expected != text {
            let got = directory.appending(path: name + ".actual")
            try? text.write(to: got, atomically: true, encoding: .utf8)
            Issue.record("\(name) differs from its golden; see \(got.path)", sourceLocation: sourceLocation)
        }
    }
}

/// Collects labelled frames of a scripted walk into one golden text.
public struct WalkRecord: Sendable {
    public private(set) var text = ""

    public init() {}

    public mutating func snap(_ label: String, _ frame: Frame?) {
        text += "# \(label)\n" + GoldenFrames.draw(frame) + "\n"
    }
}
