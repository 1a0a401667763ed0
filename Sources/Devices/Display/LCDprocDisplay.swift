public import ClickWheelCore
public import Logging

/// The `lcdproc` display: a client of LCDd over TCP with one screen and one string widget per row.
///
/// On connect it says `hello` (the `connect` line gives the size), names itself, adds a foreground
/// screen without heartbeat and a widget per row. `show` sends `widget_set` for the rows that changed
/// only, in Latin-1 (LCDd's hd44780 CharMap turns Latin-1 into the ROM's codes); custom glyphs become
/// their ASCII stand-ins, since string widgets have no CGRAM. The Clock's big digits
/// (`Frame.bigDigits`) are drawn by LCDd's own `num` widgets (digit 10 is the colon), added after the
/// rows so they lie on top, their cells left blank in the rows' strings, and deleted when the Clock goes. When LCDd goes away (stopped, restarted)
/// the display logs it once, keeps the last frame, and reconnects on a later `show` or
/// `setBacklight` (at most once per `retryMS`), redrawing everything; one log line when it is back.
/// Every call blocks until LCDd answers (or its timeout): the service drives it from a
/// `ThreadedDisplay`'s writer thread, never from the engine loop. Thread rules: one caller at a time
/// (the writer thread; tests and `debug lcd` call it directly).
public final class LCDprocDisplay: TextDisplay {
    public let geometry: DisplayGeometry
    public let charset: TextCharset = .latin1
    public let host: String
    public let port: Int
    private let clientName: String
    private let retryMS: Int64
    private let logger: Logger
    private var connection: LCDprocConnection?
    private var sentRows: [String?]
    /// The big digits LCDd shows, one `num` widget each (`n1`, `n2`, …).
    private var sentDigits: [Frame.BigDigit] = []
    private var lastFrame: Frame?
    private var backlight = true
    private var lastAttempt: Timestamp?
    /// Commands sent since init (for tests: only changed rows are sent).
    private(set) var commandsSent = 0
    private static let screen = "clickwheel"

    /// Connects to LCDd at `host:port`; throws when it cannot (the caller picks another display).
    /// The geometry is the server's; `expected`, when given and different, is logged.
    public init(
        host: String = "127.0.0.1", port: Int = 13666, name: String = "ClickWheel", expected: DisplayGeometry? = nil,
        retryMS: Int64 = 250, logger: Logger = Logger(label: "clickwheel.lcdproc")
    ) throws(LCDprocError) {
        self.host = host
        self.port = port
        clientName = name
        self.retryMS = retryMS
        self.logger = logger
        let (connection, info) = try Self.open(host: host, port: port, name: name)
        geometry = DisplayGeometry(columns: max(8, info.columns), rows: info.rows)
        if let expected, expected != geometry {
            logger.warning("lcdproc: LCDd has a \(geometry) display, not \(expected); using \(geometry)")
        }
        sentRows = Array(repeating: nil, count: geometry.rows)
        self.connection = connection
        try setUpScreen()
    }

    public func show(_ frame: Frame) throws {
        precondition(frame.columns == geometry.columns && frame.rows == geometry.rows, "frame of another size")
        lastFrame = frame
        guard try ensureConnected() else { return }
        try draw(frame)
    }

    /// Sends the rows of `frame` that differ from what LCDd shows.
    private func draw(_ frame: Frame) throws(LCDprocError) {
        var commands: [(line: String, replies: Int)] = []
        let covered = Self.bigDigitCells(frame)
        for row in 0..<frame.rows {
            var text = Self.rowText(frame, row: row)
            if !covered.isEmpty {
                text = String(text.enumerated().map { covered.contains(row * frame.columns + $0.offset) ? " " : $0.element })
            }
            guard text != sentRows[row] else { continue }
            commands.append(("widget_set \(Self.screen) r\(row + 1) 1 \(row + 1) \(LCDprocQuote.quoted(text))", 1))
            sentRows[row] = text
        }
        if frame.bigDigits != sentDigits {
            let s = Self.screen
            for (i, d) in frame.bigDigits.enumerated() {
                if i >= sentDigits.count { commands.append(("widget_add \(s) n\(i + 1) num", 1)) }
                commands.append(("widget_set \(s) n\(i + 1) \(d.column + 1) \(d.digit)", 1))
            }
            for i in frame.bigDigits.count..<max(frame.bigDigits.count, sentDigits.count) {
                commands.append(("widget_del \(s) n\(i + 1)", 1))
            }
            sentDigits = frame.bigDigits
        }
        guard !commands.isEmpty else { return }
        try run(commands)
    }

    public func setBacklight(_ on: Bool) throws {
        backlight = on
        guard try ensureConnected() else { return }
        try run([("screen_set \(Self.screen) -backlight \(on ? "on" : "off")", 1)])
    }

    public func close() {
        if let connection { _ = try? connection.send([("bye", 0)]) }
        connection?.close()
        connection = nil
    }

    deinit { close() }

    /// True while connected (false: LCDd is away and the last frame waits for the reconnect).
    var isConnected: Bool { connection != nil }

    /// The cells (row × columns + column) the big digits cover: blank in the rows' strings. On 4 rows or
    /// more LCDd draws `num` in its tall font over the top 4 rows, drawing only the digits' ink: those
    /// rows are left blank entirely (the date and the next alarm do not fit beside it there).
    static func bigDigitCells(_ frame: Frame) -> Set<Int> {
        var cells = Set<Int>()
        if !frame.bigDigits.isEmpty && frame.rows >= 4 { return Set(0..<(4 * frame.columns)) }
        for d in frame.bigDigits {
            let width = d.digit == 10 ? 1 : 3
            for i in 0..<width {
                let column = d.column + i
                cells.insert(d.row * frame.columns + column)
                cells.insert((d.row + 1) * frame.columns + column)
            }
        }
        return cells
    }

    /// Row `row` of `frame` as LCDd gets it: characters (already Latin-1 by the renderer), glyphs as ASCII.
    static func rowText(_ frame: Frame, row: Int) -> String {
        String(
            (0..<frame.columns).map { c -> Character in
                switch frame[row, c] {
                case .char(let ch): ch
                case .glyph(let slot): Int(slot) < frame.glyphs.count ? frame.glyphs[Int(slot)].ascii : " "
                }
            })
    }

    private static func open(host: String, port: Int, name: String) throws(LCDprocError) -> (
        LCDprocConnection, LCDprocServerInfo
    ) {
        let connection = try LCDprocConnection(host: host, port: port)
        let hello = try connection.send([("hello", 1)])
        guard case .connect(let info)? = hello.first?.first else {
            throw LCDprocError.handshake("\(hello)")
        }
        return (connection, info)
    }

    private func setUpScreen() throws(LCDprocError) {
        let s = Self.screen
        var commands: [(line: String, replies: Int)] = [
            ("client_set -name \(LCDprocQuote.quoted(clientName))", 1), ("screen_add \(s)", 1),
            ("screen_set \(s) -priority foreground -heartbeat off -backlight \(backlight ? "on" : "off")", 3),
        ]
        for row in 1...geometry.rows { commands.append(("widget_add \(s) r\(row) string", 1)) }
        // `noop` last: its distinct answer proves every reply above was counted (one per option).
        commands.append(("noop", 1))
        let replies = try connection?.send(commands)
        guard replies == nil || replies?.last == [.other("noop complete")] else {
            throw LCDprocError.handshake("replies out of step: \(replies?.last ?? [])")
        }
        sentRows = Array(repeating: nil, count: geometry.rows)
        sentDigits = []
    }

    /// Runs commands; a broken connection is dropped (and logged) instead of thrown.
    private func run(_ commands: [(line: String, replies: Int)]) throws(LCDprocError) {
        do {
            commandsSent += commands.count
            try connection?.send(commands)
        } catch .disconnected(let at, let why) {
            logger.warning("lcdproc: lost LCDd at \(at) (\(why)); reconnecting")
            connection?.close()
            connection = nil
            lastAttempt = MonotonicClock.now()
        }
    }

    /// True when connected, reconnecting (and redrawing) if due; false while LCDd stays away.
    private func ensureConnected() throws(LCDprocError) -> Bool {
        if connection != nil { return true }
        let now = MonotonicClock.now()
        if let last = lastAttempt, now.milliseconds(since: last) < retryMS { return false }
        lastAttempt = now
        do throws(LCDprocError) {
            let (c, info) = try Self.open(host: host, port: port, name: clientName)
            guard info.columns == geometry.columns && info.rows == geometry.rows else {
                c.close()
                throw LCDprocError.handshake("LCDd came back with a \(info.columns)x\(info.rows) display")
            }
            connection = c
            try setUpScreen()
            logger.notice("lcdproc: reconnected to LCDd at \(host):\(port)")
        } catch .unreachable, .disconnected {
            connection?.close()
            connection = nil
            return false
        }
        if let frame = lastFrame { try draw(frame) }
        return connection != nil
    }
}

/// The client is the `lcdproc` display's device: a `ThreadedDisplay` writes through it, retrying the
/// latest frame while LCDd is away.
extension LCDprocDisplay: DisplayDevice {
    public func write(_ frame: Frame) throws { try show(frame) }
    public func writeBacklight(_ on: Bool) throws { try setBacklight(on) }
    public var isCaughtUp: Bool { isConnected }
    public func finish() { close() }
}
