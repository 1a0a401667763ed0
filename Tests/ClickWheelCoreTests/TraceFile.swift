import ClickWheelCore
import Foundation

/// Reads the committed evemu traces under Traces/.
enum TraceFile {
    static let directory = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Traces")

    static func events(_ name: String) throws -> [RawInputEvent] {
        try EvemuTrace.parse(String(contentsOf: directory.appending(path: name), encoding: .utf8))
    }

    /// The touchpad of the traces: 0…1000 on both axes.
    static func touchDecoder(degreesPerStep: Double = 15) -> WheelDecoder {
        let range = TouchRingDecoder.Range(min: 0, max: 1000)
        return WheelDecoder(
            rotary: nil, touchRing: TouchRingDecoder(xRange: range, yRange: range, degreesPerStep: degreesPerStep))
    }
}

extension [InputEvent] {
    /// The signed step counts of the wheel events, in order.
    var steps: [Int] {
        compactMap { if case .wheel(let s, _) = $0 { s } else { nil } }
    }

    /// The button edges, in order.
    var buttons: [String] {
        compactMap { if case .button(let b, let p, _) = $0 { "\(b.rawValue) \(p)" } else { nil } }
    }
}
