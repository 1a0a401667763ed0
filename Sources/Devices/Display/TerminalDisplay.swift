public import ClickWheelCore
import Glibc

/// The `terminal` display: the frame in a box drawn with ANSI cursor moves, only changed cells
/// written, on the alternate screen so the user's screen comes back on close (also on signals and
/// crashes, through `TerminalGuard`). Works in tmux and over ssh.
///
/// Thread rules: the engine loop only.
public final class TerminalDisplay: TextDisplay {
    public let geometry: DisplayGeometry
    public let charset: TextCharset = .utf8
    private var screen: ANSIScreen
    private let fd: Int32
    private var open = true

    /// Takes over the terminal on `fd` (standard output by default); `note` shows under the box
    /// (e.g. "playback: null output").
    public init(geometry: DisplayGeometry, fd: Int32 = 1, note: String? = nil) throws {
        self.geometry = geometry
        self.fd = fd
        screen = ANSIScreen(geometry: geometry)
        TerminalGuard.setRestoreText(screen.finish() + "\u{1B}[?1049l", fd: fd)
        try write("\u{1B}[?1049h" + screen.start(note: note))
    }

    public func show(_ frame: Frame) throws {
        try write(screen.draw(frame))
    }

    public func setBacklight(_ on: Bool) throws {
        try write(screen.setDimmed(!on))
    }

    public func close() {
        guard open else { return }
        open = false
        TerminalGuard.restore()
    }

    deinit { close() }

    private func write(_ text: String) throws {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw TerminalGuard.Error(call: "write", errno: errno)
            }
            offset += n
        }
    }
}
