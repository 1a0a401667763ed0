import Foundation
import Library

/// Shows scan progress: a redrawn bar on a terminal, a plain line every few seconds otherwise.
final class ProgressPrinter {
    private let isTTY: Bool
    private var started = Date()
    private var lastPrint = Date.distantPast
    private var drewBar = false

    init(isTTY: Bool) { self.isTTY = isTTY }

    func update(_ p: ScanProgress) {
        guard p.phase == .reading, p.total > 0 else { return }
        if p.done == 0 { started = Date() }
        let now = Date()
        let elapsed = now.timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(p.done) / elapsed : 0
        let eta = rate > 0 ? Double(p.total - p.done) / rate : 0
        if isTTY {
            let width = 30
            let filled = p.total > 0 ? width * p.done / p.total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            let line = String(format: "\r[%@] %d/%d files  %.0f files/s  ETA %.0f s ", bar, p.done, p.total, rate, eta)
            FileHandle.standardError.write(Data(line.utf8))
            drewBar = true
        } else if now.timeIntervalSince(lastPrint) >= 5 || p.done == p.total {
            lastPrint = now
            FileHandle.standardError.write(
                Data(String(format: "indexing: %d/%d files, %.0f files/s, ETA %.0f s\n", p.done, p.total, rate, eta).utf8))
        }
    }

    func finish() {
        if drewBar {
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            drewBar = false
        }
    }
}
