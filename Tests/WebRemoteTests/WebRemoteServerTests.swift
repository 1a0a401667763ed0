import ClickWheelCore
import Foundation
import NIOPosix
import Logging
import Synchronization
import Testing

@testable import WebRemote

/// The web remote's HTTP and WebSocket server against a real TCP socket on loopback: what it serves,
/// whom it lets in, what it does with input, bad messages and browsers that stop reading.
@Suite(.serialized) struct WebRemoteServerTests {
    /// A remote on a free loopback port, with what browsers sent collected.
    final class Running: Sendable {
        final class Inbox: Sendable {
            let items = Mutex<[WebInput]>([])
        }
        let remote: WebRemote
        let inbox = Inbox()
        var port: Int { remote.port }
        var received: [WebInput] { inbox.items.withLock { $0 } }

        init(password: String? = nil, host: String = "127.0.0.1", tweak: (inout WebRemoteOptions) -> Void = { _ in }) throws {
            var options = WebRemoteOptions(
                host: host, port: 0, password: password, geometry: DisplayGeometry(columns: 16, rows: 2), charset: .utf8)
            tweak(&options)
            let inbox = self.inbox
            remote = WebRemote(
                options: options, eventLoop: MultiThreadedEventLoopGroup.singleton.next(), logger: Logger(label: "web-test"), input: { i in inbox.items.withLock { $0.append(i) } },
                artwork: { id in id == 7 ? WebArtwork(mime: "image/png", bytes: [0x89, 0x50, 0x4E, 0x47]) : nil })
            try remote.start()
        }

        deinit { remote.stop() }

        /// Waits (up to 10 s) until the inputs satisfy `done`; returns them.
        func inputs(until done: ([WebInput]) -> Bool) -> [WebInput] {
            for _ in 0..<1000 {
                let now = received
                if done(now) { return now }
                usleep(10_000)
            }
            return received
        }
    }

    static func frame(_ rows: [String]) -> Frame {
        var f = Frame(columns: 16, rows: rows.count)
        for (r, text) in rows.enumerated() {
            for (c, ch) in text.prefix(16).enumerated() { f[r, c] = .char(ch) }
        }
        return f
    }

    @Test func servesThePageAndNothingFromTheFileSystem() throws {
        let r = try Running()
        let c = try WSTestClient(port: r.port)
        let page = try c.get("/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        #expect(String(decoding: page.body, as: UTF8.self).contains("<script src=\"/app.js\"></script>"))
        #expect(try c.get("/app.js").status == 200)
        for path in ["/../../etc/passwd", "/etc/passwd", "/Assets/app.js", "/%2e%2e/Package.swift", "/art/../1", "/art/x", "/art/-1"] {
            #expect(try c.get(path).status == 404, "\(path)")
        }
        let art = try c.get("/art/7")
        #expect(art.status == 200 && art.headers["content-type"] == "image/png" && art.body == [0x89, 0x50, 0x4E, 0x47])
        #expect(try c.get("/art/8").status == 404)
    }

    @Test func refusesOtherOriginsAndHosts() throws {
        let r = try Running()
        #expect(try WSTestClient(port: r.port).upgrade(origin: "http://evil.example") == 403)
        #expect(try WSTestClient(port: r.port).upgrade(origin: nil) == 403)
        // A name rebound to 127.0.0.1: the origin matches its host, but the host is not loopback.
        #expect(try WSTestClient(port: r.port).upgrade(origin: "http://evil.example:80", host: "evil.example:80") == 403)
        #expect(try WSTestClient(port: r.port).get("/", headers: ["Host": "evil.example"]).status == 403)
        #expect(try WSTestClient(port: r.port).upgrade(origin: "http://localhost:1", host: "localhost:1") == 101)
        #expect(try WSTestClient(port: r.port).upgrade(origin: "https://localhost:1", host: "localhost:1") == 101)
        #expect(try WSTestClient(port: r.port).upgrade(origin: "http://localhost:2", host: "localhost:1") == 403)
    }

    @Test func everyBrowserSeesTheFramesAndTheWheelTurnsIn20DegreeSteps() throws {
        let r = try Running()
        r.remote.show(Self.frame(["Music", "Settings"]))
        let a = try WSTestClient(port: r.port), b = try WSTestClient(port: r.port)
        #expect(try a.upgrade() == 101 && b.upgrade() == 101)
        for c in [a, b] {
            #expect(c.read(type: "hello") != nil)
            #expect((c.read(type: "frame")?["lines"] as? [String]) == ["Music           ", "Settings        "])
        }
        r.remote.show(Self.frame(["Now Playing", "1 of 3"]))
        for c in [a, b] { #expect((c.read(type: "frame")?["lines"] as? [String])?.first == "Now Playing     ") }

        // 60° in small drags: 3 steps; 10° back does not step; a button's edges pass as they are.
        for d in [15.0, 15, 15, 15] { a.sendText("{\"t\":\"wheel\",\"deg\":\(d)}") }
        a.sendText("{\"t\":\"wheel\",\"deg\":-10}")
        a.sendText("{\"t\":\"button\",\"b\":\"select\",\"p\":\"down\"}")
        a.sendText("{\"t\":\"button\",\"b\":\"select\",\"p\":\"down\"}")
        a.sendText("{\"t\":\"button\",\"b\":\"select\",\"p\":\"up\"}")
        let all = r.inputs { $0.count >= 5 }
        #expect(all == [.wheel(1), .wheel(1), .wheel(1), .button(.select, .down), .button(.select, .up)])
    }

    @Test func aBadMessageClosesThatSocketOnly() throws {
        let r = try Running()
        r.remote.show(Self.frame(["Music", ""]))
        let good = try WSTestClient(port: r.port)
        #expect(try good.upgrade() == 101)
        #expect(good.read(type: "frame") != nil)
        let bad: [(String, (WSTestClient) -> Void, Int)] = [
            ("not JSON", { $0.sendText("hello") }, 1003),
            ("an unknown type", { $0.sendText("{\"t\":\"format\"}") }, 1003),
            ("an unknown button", { $0.sendText("{\"t\":\"button\",\"b\":\"eject\",\"p\":\"down\"}") }, 1003),
            ("an angle past a turn", { $0.sendText("{\"t\":\"wheel\",\"deg\":1e308}") }, 1003),
            ("binary", { $0.sendFrame(opcode: 2, [1, 2, 3]) }, 1003),
            ("unmasked", { $0.sendFrame(opcode: 1, Array("{\"t\":\"wheel\",\"deg\":1}".utf8), masked: false) }, 1002),
            ("too long", { $0.sendText("{\"t\":\"wheel\",\"deg\":1,\"x\":\"" + String(repeating: "x", count: 5000) + "\"}") }, 1009),
        ]
        for (what, send, code) in bad {
            let c = try WSTestClient(port: r.port)
            #expect(try c.upgrade() == 101)
            #expect(c.read(type: "frame") != nil)
            send(c)
            #expect(c.readMessage() == nil, "\(what)")
            #expect(c.lastClose == code, "\(what)")
        }
        r.remote.show(Self.frame(["Still here", ""]))
        #expect((good.read(type: "frame")?["lines"] as? [String])?.first == "Still here      ")
        #expect(r.received.isEmpty)
    }

    @Test func aPasswordComesBeforeAnything() throws {
        let r = try Running(password: "s3cret")
        r.remote.show(Self.frame(["Private", ""]))
        let wrong = try WSTestClient(port: r.port)
        #expect(try wrong.upgrade() == 101)
        #expect(wrong.readMessage()?["t"] as? String == "auth")
        wrong.sendText("{\"t\":\"wheel\",\"deg\":40}")
        #expect(wrong.readMessage() == nil && wrong.lastClose == 1008)

        let c = try WSTestClient(port: r.port)
        #expect(try c.upgrade() == 101)
        #expect(c.readMessage()?["t"] as? String == "auth")
        c.sendText("{\"t\":\"auth\",\"password\":\"nope\"}")
        #expect(c.readMessage()?["t"] as? String == "denied")
        #expect(c.readMessage() == nil && c.lastClose == 1008)

        let ok = try WSTestClient(port: r.port)
        #expect(try ok.upgrade() == 101)
        #expect(ok.readMessage()?["t"] as? String == "auth")
        ok.sendText("{\"t\":\"auth\",\"password\":\"s3cret\"}")
        let hello = ok.readMessage()
        let token = try #require(hello?["token"] as? String)
        #expect((ok.readMessage()?["lines"] as? [String])?.first == "Private         ")
        // Artwork too needs the password (through the token of an admitted browser).
        #expect(try WSTestClient(port: r.port).get("/art/7").status == 403)
        #expect(try WSTestClient(port: r.port).get("/art/7?t=\(token)").status == 200)
        #expect(r.received.isEmpty)
    }

    @Test func aBrowserThatGivesNoPasswordIsClosedAndOneTooManyRefused() throws {
        let r = try Running(password: "pw") {
            $0.authTimeoutSeconds = 1
            $0.maxClients = 2
        }
        let silent = try WSTestClient(port: r.port)
        #expect(try silent.upgrade() == 101)
        #expect(silent.readMessage()?["t"] as? String == "auth")
        let second = try WSTestClient(port: r.port)
        #expect(try second.upgrade() == 101)
        #expect(try WSTestClient(port: r.port).upgrade() == 403)
        #expect(silent.readMessage() == nil && silent.lastClose == 1008)
    }

    @Test func anyAddressButLoopbackNeedsAPassword() throws {
        #expect(throws: WebRemote.StartError.self) { _ = try Running(host: "0.0.0.0") }
        let r = try Running(password: "pw", host: "0.0.0.0")
        let c = try WSTestClient(port: r.port)
        #expect(try c.upgrade(origin: "http://192.0.2.1:8080", host: "192.0.2.1:8080") == 101)
        #expect(c.readMessage()?["t"] as? String == "auth")
    }

    @Test func inputBeyondTheRateLimitIsDropped() throws {
        // A bucket that refills too slowly to matter while the test runs (one token in ~30 years): what
        // gets through is the burst, however slow the machine.
        let r = try Running { $0.inputPerSecond = 1e-9; $0.inputBurst = 10 }
        let c = try WSTestClient(port: r.port)
        #expect(try c.upgrade() == 101)
        #expect(c.read(type: "hello") != nil)
        for _ in 0..<200 { c.sendText("{\"t\":\"wheel\",\"deg\":20}") }
        c.sendText("{\"t\":\"button\",\"b\":\"menu\",\"p\":\"down\"}")
        // A ping after them: the session handles a socket's frames in order and hands each input over
        // before reading the next, so its pong means every message above has been taken or dropped.
        c.sendFrame(opcode: 9, Array("barrier".utf8))
        var pong = false
        while let (opcode, payload) = c.readFrame() {
            if opcode == 10 { pong = payload == Array("barrier".utf8); break }
        }
        #expect(pong)
        // The socket stays open (dropping is not closing) and the engine got the burst, not 200 steps.
        r.remote.show(Self.frame(["after", ""]))
        #expect(c.read(type: "frame") != nil)
        let got = r.received
        #expect(got.count == 10, "\(got.count)")
    }

    @Test func aBrowserThatStopsReadingIsDroppedAndTheOthersGoOn() throws {
        let r = try Running { $0.maxOwedBytes = 16 << 10 }
        let slow = try WSTestClient(port: r.port, receiveBuffer: 2048)
        let fast = try WSTestClient(port: r.port)
        #expect(try slow.upgrade() == 101 && fast.upgrade() == 101)
        #expect(slow.read(type: "hello") != nil && fast.read(type: "hello") != nil)
        // Frames of 200x20 cells (4 KB each): 3000 of them are well past what the kernel's socket buffers hold.
        var big = Frame(columns: 200, rows: 20)
        for i in 0..<3000 {
            big[i % 20, i % 200] = .char(Character(UnicodeScalar(UInt8(65 + i % 26))))
            r.remote.show(big)
            if i % 50 == 49 { while let m = fast.readMessage(), (m["seq"] as? Int ?? 0) < i + 1 {} }
        }
        // The fast one got every frame up to the last; the slow one ends before it.
        var lastSlow = 0
        while let m = slow.readMessage() { lastSlow = m["seq"] as? Int ?? lastSlow }
        #expect(lastSlow < 3000)
    }

    @Test func heldButtonsAreReleasedWhenTheBrowserGoes() throws {
        let r = try Running()
        do {
            let c = try WSTestClient(port: r.port)
            #expect(try c.upgrade() == 101)
            #expect(c.read(type: "hello") != nil)
            c.sendText("{\"t\":\"button\",\"b\":\"select\",\"p\":\"down\"}")
            _ = r.inputs { !$0.isEmpty }
        }
        #expect(r.inputs { $0.count >= 2 } == [.button(.select, .down), .button(.select, .up)])
    }
}

/// The pure parts: angle to steps, the rate limiter, the message codec.
@Suite struct WebRemotePartsTests {
    @Test func twentyDegreesAStepWithTheRemainderCarried() {
        var w = WheelAngle()
        #expect(w.steps(for: 10) == 0)
        #expect(w.steps(for: 10) == 1)
        #expect(w.steps(for: 60) == 3)
        #expect(w.steps(for: 19.9) == 0)
        #expect(w.steps(for: -5) == 0)  // a reversal starts from zero: no step back for the wobble
        #expect(w.steps(for: -15) == -1)
        #expect(w.steps(for: 361) == nil)
        #expect(w.steps(for: .nan) == nil)
    }

    @Test func theBucketRefillsAtItsRate() {
        var l = RateLimiter(rate: 10, burst: 2)
        let answers = [0, 0, 0, 50_000_000, 100_000_000, 100_000_000].map { l.allow(at: UInt64($0)) }
        #expect(answers == [true, true, false, false, true, false])
    }

    @Test func framesCarryTheCharsetAndBacklight() throws {
        var f = Frame(columns: 8, rows: 1)
        f[0, 0] = .char("A")
        let text = WebMessages.frame(f, charset: .hd44780A00, backlight: false, seq: 3)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["lines"] as? [String] == ["A       "])
        #expect(json["charset"] as? String == "hd44780A00" && json["backlight"] as? Bool == false)
        #expect(WebMessages.quote("a\"\\\n\u{1}") == "\"a\\\"\\\\\\n\\u0001\"")
    }
}
