import ClickWheelCore
import Devices
import Glibc
import Testing

/// The terminal display and raw mode on a real pseudo-terminal.
@Suite(.serialized) struct TerminalDisplayTests {
    struct PTYError: Error {}

    /// Opens a pty pair: (master, slave), by hand because Swift's Glibc lacks posix_openpt: unlock with
    /// TIOCSPTLCK (_IOW('T', 0x31, int)), then the slave's number from TIOCGPTN (_IOR('T', 0x30, uint)).
    func openPTY() throws -> (Int32, Int32) {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        guard master >= 0, ioctl(master, UInt(0x4004_5431), &unlock) == 0 else { throw PTYError() }
        var number: UInt32 = 0
        guard ioctl(master, UInt(0x8004_5430), &number) == 0 else { throw PTYError() }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw PTYError() }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        return (master, slave)
    }

    func drain(_ fd: Int32) -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    func echoIsOn(_ fd: Int32) -> Bool {
        var t = termios()
        _ = tcgetattr(fd, &t)
        return t.c_lflag & tcflag_t(ECHO) != 0
    }

    @Test func rawModeIsEnteredAndRestored() throws {
        let (master, slave) = try openPTY()
        defer {
            close(slave)
            close(master)
        }
        #expect(echoIsOn(slave))
        try TerminalGuard.enterRawMode(fd: slave)
        #expect(!echoIsOn(slave))
        TerminalGuard.restore()
        #expect(echoIsOn(slave))
        #expect(!TerminalGuard.isRaw)
    }

    @Test func displayDrawsOnTheAlternateScreenAndLeavesItOnClose() throws {
        let (master, slave) = try openPTY()
        defer {
            close(slave)
            close(master)
        }
        let geometry = DisplayGeometry(columns: 16, rows: 3)
        let display = try TerminalDisplay(geometry: geometry, fd: slave, note: "null output")
        let renderer = LCDRenderer(geometry: geometry)
        try display.show(renderer.render(.text(title: "Music", lines: ["Artists"]), now: .zero))
        var written = drain(master)
        #expect(written.contains("\u{1B}[?1049h"))
        #expect(written.contains("Music") && written.contains("Artists") && written.contains("null output"))
        try display.show(renderer.render(.text(title: "Music", lines: ["Albums"]), now: .zero))
        written = drain(master)
        #expect(written.contains("lbums") && !written.contains("Music"))
        display.close()
        #expect(drain(master).contains("\u{1B}[?1049l"))
    }
}
