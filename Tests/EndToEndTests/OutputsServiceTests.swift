import ClickWheelTestKit
import Foundation
import NamedThreads
import Synchronization
import Testing

/// The real `clickwheel run` with two outputs, `null` and `snapcast` into a FIFO (snapserver's `pipe://`
/// source, read here as snapserver would), switched over MPD: `outputs`, `enableoutput`, `disableoutput`,
/// `toggleoutput`, `outputset`, byte for byte as MPD 0.23 answers them, and the PCM that reaches the FIFO.
@Suite(.serialized) struct OutputsServiceTests {
    /// Reads a FIFO as snapserver's pipe source does (opened first, non-blocking, so the writer's open
    /// succeeds), counting what arrives.
    final class FIFOReader: @unchecked Sendable {
        // @unchecked: `received` is `Locked`; `fd` and `thread` are set before the thread starts, `stop` is
        // atomic.
        let path: String
        private let received = Locked(0)
        private let stop = Atomic<Bool>(false)
        private let fd: Int32
        private var thread: Thread?

        init(path: String) throws {
            self.path = path
            guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
            fd = open(path, O_RDONLY | O_NONBLOCK)
            let t = Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65536)
                while !stop.load(ordering: .relaxed) {
                    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&p, 1, 50) == 1 else { continue }
                    let n = read(fd, &buffer, buffer.count)
                    if n > 0 {
                        received.withLock { $0 += n }
                    } else {
                        usleep(10_000)  // no writer at the moment (EOF): wait for one
                    }
                }
            }
            thread = t
            t.start()
        }

        var count: Int { received.withLock { $0 } }

        deinit {
            stop.store(true, ordering: .relaxed)
            usleep(100_000)
            close(fd)
        }
    }

    /// 44100:16:2, the stream format of the snapcast output.
    static let bytesPerSecond = 44_100 * 4

    final class Service {
        let dir: URL
        let socket: String
        let child: ChildProcess
        let fifo: FIFOReader

        init() throws {
            dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("cw-out-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            socket = dir.appendingPathComponent("socket").path
            fifo = try FIFOReader(path: dir.appendingPathComponent("snapfifo").path)
            let music = TerminalDemoTests.root.appendingPathComponent("Tests/LibraryTests/Fixtures/music").path
            child = try ChildProcess(TerminalDemoTests.binary, [
                "run", "--display", "none", "--input", "none", "--output", "null,snapcast", "--snapcast",
                "pipe://" + fifo.path,
                // No Snapcast rooms: only the configured outputs are listed (a snapserver on this machine's
                // port 1705 would add its clients).
                "--snapcast-control", "off", "--music", music, "--db", dir.path + "/lib.sqlite", "--socket", socket,
            ])
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(50_000) }
        }

        deinit {
            child.kill(SIGKILL)
            _ = child.wait()
            try? FileManager.default.removeItem(at: dir)
        }

        @discardableResult
        func mpc(_ args: String...) throws -> String { try ChildProcess.run("mpc", ["-h", socket] + args).stdout }

        /// Bytes the FIFO got over `seconds` of playing.
        func growth(over seconds: Double) -> Int {
            let before = fifo.count
            usleep(UInt32(seconds * 1_000_000))
            return fifo.count - before
        }
    }

    @Test func outputsAreListedAndSwitchedAsMPDDoesAndTheSnapcastFIFOGetsRealTimePCM() throws {
        let s = try Service()
        let c = try RawClient(s.socket)
        _ = c.response()  // greeting
        #expect(
            c.roundTrip("outputs") == """
                outputid: 0
                outputname: Null Output
                plugin: null
                outputenabled: 1
                outputid: 1
                outputname: Snapcast
                plugin: snapcast
                outputenabled: 1
                OK

                """)
        try s.mpc("update", "--wait")
        // Durations holds 44.1 kHz stereo, 22.05 kHz mono and 48 kHz tracks: all reach the FIFO at 44100:16:2.
        try s.mpc("add", "Durations")
        try s.mpc("repeat", "on")
        try s.mpc("play")
        usleep(1_000_000)
        let playing = s.growth(over: 3)
        let seconds = Double(playing) / Double(Self.bytesPerSecond)
        print("snapcast FIFO: \(seconds) s of audio in 3 s of playing")
        #expect(seconds > 2.5 && seconds < 3.5, "paced in real time: \(seconds) s of PCM in 3 s")

        #expect(c.roundTrip("disableoutput 1") == "OK\n")
        usleep(500_000)
        #expect(s.growth(over: 1) == 0, "a disabled output gets nothing")
        #expect(c.roundTrip("outputs").contains("outputid: 1\noutputname: Snapcast\nplugin: snapcast\noutputenabled: 0\n"))

        // Another client waits for the change: MPD's `output` idle subsystem.
        let idler = try RawClient(s.socket)
        _ = idler.response()
        idler.send("idle output\n")
        #expect(c.roundTrip("toggleoutput 1") == "OK\n")
        #expect(idler.response() == "changed: output\nOK\n")
        usleep(500_000)
        #expect(s.growth(over: 1) > Self.bytesPerSecond / 2, "enabled again, the FIFO gets PCM")

        // The first output off: the snapcast one keeps the clock and plays on.
        #expect(c.roundTrip("toggleoutput 0") == "OK\n")
        usleep(1_000_000)
        let alone = Double(s.growth(over: 2)) / Double(Self.bytesPerSecond)
        #expect(alone > 1.5 && alone < 2.5, "snapcast alone: \(alone) s of PCM in 2 s")
        #expect(try s.mpc("status").contains("[playing]"))

        #expect(c.roundTrip("enableoutput 5") == "ACK [50@0] {enableoutput} No such audio output\n")
        #expect(c.roundTrip("disableoutput x") == "ACK [2@0] {disableoutput} Integer expected: x\n")
        #expect(c.roundTrip("outputset 0 foo bar") == "ACK [2@0] {outputset} Unsupported attribute\n")
        #expect(c.roundTrip("outputset 7 foo bar") == "ACK [50@0] {outputset} No such audio output\n")
        #expect(try s.mpc("outputs").contains("Output 2 (Snapcast) is enabled"))
    }
}
