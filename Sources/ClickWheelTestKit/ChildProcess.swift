#if canImport(Glibc)
    import Glibc
#endif
public import Foundation
import NamedThreads

/// Runs programs for tests with `posix_spawn` and `waitpid`, reading stdout and stderr together.
///
/// Foundation's `Process` reaps children through a SIGCHLD monitor on libdispatch that can hang
/// `waitUntilExit` when many tests spawn at once, and is a known source of crashes on Linux; this has
/// no shared state at all. Every test spawns its programs through this.
///
/// A class, so that every copy is the same child: `wait()` reads, closes and reaps exactly once and
/// hands later callers the same result, and `kill` after that is a no-op. (Copies of a value would
/// each close the pipes: a second close hits a descriptor number another thread may have reused
/// meanwhile, such as SwiftNIO's epoll loop, which then dies of EBADF.)
/// Any thread: reading, closing and reaping are serialised by `waiting`, and the result is kept under
/// the lock `kill` takes.
public final class ChildProcess: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public let pid: pid_t
    private let out: Int32
    private let err: Int32
    /// Serialises `wait()`: the first caller reads, closes `out` and `err`, and reaps.
    private let waiting = Locked(())
    /// Set when the child is reaped, under the lock `kill` takes, so `kill` never signals a reaped pid.
    private let result = Locked<Result?>(nil)

    /// Where the child's standard output and error go.
    public enum Output: Sendable {
        /// Into pipes that `wait()` reads into its `Result`.
        case capture
        /// To /dev/null: for a program whose children may outlive it (a daemon), which would hold a
        /// pipe open and keep `wait()` from ever seeing its end.
        case discard
        /// Into files, created or truncated (nil: /dev/null): a recorder such as parec writing raw
        /// audio, or a daemon's log read while it runs. The files are opened in the child, as a
        /// shell's `>` would, so the program is the child itself and `kill` reaches it.
        case files(stdout: String?, stderr: String?)
    }

    /// Starts `path` with `arguments`; standard input is /dev/null; `output` says where standard
    /// output and error go; `directory` is the child's working directory (the caller's when nil).
    public init(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, output: Output = .capture,
        directory: String? = nil
    ) throws {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        switch output {
        case .capture:
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        case .discard:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .files(let stdout, let stderr):
            for (fd, file) in [(Int32(1), stdout), (Int32(2), stderr)] {
                if let file {
                    posix_spawn_file_actions_addopen(&actions, fd, file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                } else {
                    posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
                }
            }
        }
        // The child gets 0, 1 and 2 and nothing else. Descriptors without close-on-exec (the pipes,
        // a test's raw sockets, and the connections SwiftNIO accepts: accept4 without SOCK_CLOEXEC)
        // would otherwise live on in the child: a connection a server closed stayed open there, and
        // its client saw no end of file until that child exited.
        if let closeFrom = Self.addCloseFrom {
            _ = closeFrom(&actions, 3)
        } else {
            for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        }
        if let directory {
            guard let chdir = Self.addChdir else { throw POSIXError(.ENOSYS) }
            _ = chdir(&actions, directory)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        // The child starts with no blocked signals and default handlers: a test runner's threads block
        // signals, and a daemon (tmux) that inherited that mask would never see its own SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child = pid_t()
        let rc = posix_spawnp(&child, path, &actions, &attributes, argv, env)
        close(outPipe[1])
        close(errPipe[1])
        guard rc == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .ENOENT)
        }
        pid = child
        out = outPipe[0]
        err = errPipe[0]
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module
    /// does not declare; nil on an older C library.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), likewise undeclared.
    private static let addChdir: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
    }()

    /// Runs to the end and returns the exit status (128 + signal when killed) and the output.
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, output: Output = .capture,
        directory: String? = nil
    ) throws -> Result {
        try ChildProcess(path, arguments, environment: environment, output: output, directory: directory).wait()
    }

    /// Reads all output, then waits for the exit; later calls return the same result.
    public func wait() -> Result {
        waiting.withLock { _ in reaped ?? readAndReap() }
    }

    private var reaped: Result? { result.withLock { $0 } }

    /// Closes the pipes of a child nobody waited for (it is left to the test runner's exit).
    deinit {
        if reaped == nil {
            close(out)
            close(err)
        }
    }

    private func readAndReap() -> Result {
        var stdout: [UInt8] = [], stderr: [UInt8] = []
        var fds = [pollfd(fd: out, events: Int16(POLLIN), revents: 0), pollfd(fd: err, events: Int16(POLLIN), revents: 0)]
        var open = 2
        var buf = [UInt8](repeating: 0, count: 65536)
        while open > 0 {
            guard poll(&fds, 2, -1) >= 0 else { if errno == EINTR { continue }; break }
            for i in 0..<2 where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = read(fds[i].fd, &buf, buf.count)
                if n > 0 {
                    if i == 0 { stdout += buf[0..<n] } else { stderr += buf[0..<n] }
                } else if n == 0 || errno != EINTR {
                    close(fds[i].fd)
                    fds[i].fd = -1
                    open -= 1
                }
            }
        }
        for f in fds where f.fd >= 0 { close(f.fd) }
        // Wait for the exit without reaping, then reap under the lock `kill` takes.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        return result.withLock { result in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            let r = Result(
                status: code, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
            result = r
            return r
        }
    }

    /// Sends `signal` to the child; nothing once it has been reaped (its pid may belong to another).
    public func kill(_ signal: Int32) {
        result.withLock { result in
            if result == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    /// Whether the child has exited (without reaping it).
    public var hasExited: Bool {
        if reaped != nil { return true }
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
    }
}
