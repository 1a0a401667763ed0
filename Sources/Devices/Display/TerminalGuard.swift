import Glibc

/// Puts the controlling terminal in raw mode and guarantees it is restored: on `restore()`, at exit,
/// and on SIGINT, SIGTERM, SIGHUP, SIGQUIT and the crash signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP,
/// SIGABRT), after which the signal is re-raised with its default action.
///
/// Raw mode here keeps ISIG, so Ctrl-C still stops the program (through the restoring handler).
/// Thread rules: `enterRawMode`, `setRestoreText` and `restore` from the engine loop (and start-up and shutdown); the handlers use
/// only async-signal-safe calls (write, tcsetattr, signal, raise).
public enum TerminalGuard {
    /// A terminal call failed.
    public struct Error: Swift.Error, CustomStringConvertible {
        public var call: String
        public var errno: Int32
        public var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }
    }

    /// Switches `fd` (a terminal) to raw mode, saving its settings first; installs the handlers once.
    public static func enterRawMode(fd: Int32 = 0) throws {
        var attributes = termios()
        guard tcgetattr(fd, &attributes) == 0 else { throw Error(call: "tcgetattr", errno: errno) }
        if !guardState.hasSaved {
            guardState.saved = attributes
            guardState.fd = fd
            guardState.hasSaved = true
            installHandlers()
        }
        attributes.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        attributes.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &attributes.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &attributes) == 0 else { throw Error(call: "tcsetattr", errno: errno) }
    }

    /// Sets the bytes written to `fd` on restore (the display's "leave the screen as it was" sequence).
    public static func setRestoreText(_ text: String, fd: Int32 = 1) {
        guardState.outputFD = fd
        let bytes = Array(text.utf8)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
        buffer.initialize(from: bytes, count: bytes.count)
        let old = guardState.restoreText
        guardState.restoreText = (buffer, bytes.count)
        if let old { old.pointer.deallocate() }
        if !guardState.handlersInstalled { installHandlers() }
    }

    /// True while raw mode is on (settings saved and not yet restored).
    public static var isRaw: Bool { guardState.hasSaved }

    /// Writes the restore text and puts the terminal settings back; idempotent.
    public static func restore() {
        restoreFromAnyContext()
        if let text = guardState.restoreText {
            guardState.restoreText = nil
            text.pointer.deallocate()
        }
        guardState.hasSaved = false
    }

    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT]

    private static func installHandlers() {
        guard !guardState.handlersInstalled else { return }
        guardState.handlersInstalled = true
        for s in signals {
            _ = signal(s) { sig in
                restoreFromAnyContext()
                _ = signal(sig, SIG_DFL)
                _ = raise(sig)
            }
        }
        atexit { restoreFromAnyContext() }
    }
}

/// The guard's state, global so that signal handlers (C function pointers) can reach it.
private struct GuardState {
    var saved = termios()
    var fd: Int32 = 0
    var outputFD: Int32 = 1
    var hasSaved = false
    var handlersInstalled = false
    var restoreText: (pointer: UnsafeMutablePointer<UInt8>, count: Int)?
}

nonisolated(unsafe) private var guardState = GuardState()

/// Async-signal-safe: writes the restore text once and restores the saved settings.
private func restoreFromAnyContext() {
    if let text = guardState.restoreText, text.count > 0 {
        _ = write(guardState.outputFD, text.pointer, text.count)
        guardState.restoreText = (text.pointer, 0)
    }
    if guardState.hasSaved {
        var saved = guardState.saved
        _ = tcsetattr(guardState.fd, TCSANOW, &saved)
    }
}
