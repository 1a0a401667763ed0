import ClickWheelTestKit
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The test kit's child process: waiting twice (a test's `stop()` and then its `deinit`) must not close
/// its pipes a second time. The second close hit whatever descriptor had taken those numbers since,
/// once SwiftNIO's epoll descriptor, and the test runner died of EBADF in `epoll_wait`.
@Suite struct ChildProcessTests {
    @Test func waitingTwiceClosesNothingElse() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        let first = child.wait()
        #expect(first.status == 3 && first.stdout == "out\n" && first.stderr == "err\n")
        // A second wait is the first one's result; before, it polled the closed numbers again
        // (and closed them again) and answered with no output.
        let second = child.wait()
        #expect(second.status == first.status && second.stdout == first.stdout && second.stderr == first.stderr)
        child.kill(SIGKILL)  // reaped: no signal to a pid that may be another process's now
        #expect(child.hasExited)
    }

    /// A descriptor the test process holds without close-on-exec (as SwiftNIO holds the connections it
    /// accepts) is not the child's: a connection a test server closed stayed open in whatever child
    /// was running then, and its client waited for an end of file that never came.
    @Test func theChildGetsNoDescriptorButItsOutput() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { fds.forEach { close($0) } }
        let r = try ChildProcess.run("/bin/sh", ["-c", "for fd in \(fds[0]) \(fds[1]); do [ -e /proc/$$/fd/$fd ] && echo \"$fd open\"; done; echo done"])
        #expect(r.status == 0 && r.stdout == "done\n", "\(r.stdout)")
    }

    /// Output into files: each stream into its own, an earlier content replaced, nil to /dev/null; the
    /// program is the child itself (its pid, so `kill` reaches it: no shell in between), and a file
    /// that cannot be opened fails the start.
    @Test func outputIntoFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-child-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out", err = dir + "/err"
        try "an older, longer content\n".write(toFile: out, atomically: false, encoding: .utf8)
        let child = try ChildProcess(
            "/bin/sh", ["-c", "echo $$; echo err >&2; exit 4"], output: .files(stdout: out, stderr: err))
        let r = child.wait()
        #expect(r.status == 4 && r.stdout.isEmpty && r.stderr.isEmpty)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "\(child.pid)\n")
        #expect(try String(contentsOfFile: err, encoding: .utf8) == "err\n")

        let quiet = try ChildProcess.run("/bin/sh", ["-c", "echo lost; echo kept >&2"], output: .files(stdout: nil, stderr: err))
        #expect(quiet.status == 0 && quiet.stdout.isEmpty)
        #expect(try String(contentsOfFile: err, encoding: .utf8) == "kept\n")

        #expect(throws: (any Error).self) {
            try ChildProcess("/bin/true", [], output: .files(stdout: dir + "/no/such/folder/out", stderr: nil))
        }
    }
}
