import ClickWheelTestKit
import Devices
import Foundation
import Testing

/// `SystemClock` against the kernel, each reading compared with one taken another way: the sync status
/// with Python's ctypes calling adjtimex (struct timex's status field), the boot id with /proc, the boot
/// clock with /proc/uptime (CLOCK_BOOTTIME in seconds).
@Suite struct SystemClockTests {
    @Test func theKernelsSyncStatusAsAdjtimexSaysIt() throws {
        #if arch(x86_64) || arch(arm64)
            // 64-bit Linux: int modes (padded to 8), then long offset, freq, maxerror, esterror: status at 40.
            let script = """
                import ctypes
                buf = ctypes.create_string_buffer(512)
                state = ctypes.CDLL(None, use_errno=True).adjtimex(buf)
                status = int.from_bytes(buf.raw[40:44], 'little', signed=True)
                print(1 if state != -1 and state != 5 and not (status & 0x40) else 0)
                """
            let r = try ChildProcess.run("python3", ["-c", script])
            let synced = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(SystemClock.kernelSaysSynchronised() == (synced == "1"), "python says \(synced) \(r.stderr)")
        #endif
    }

    @Test func aFileDecidesWhenOneIsGiven() throws {
        let path = "/tmp/cw-synced-\(UUID().uuidString.prefix(8))"
        #expect(!SystemClock.isSynchronised(syncedFile: path))
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { unlink(path) }
        #expect(SystemClock.isSynchronised(syncedFile: path))
        #expect(SystemClock.isSynchronised(syncedFile: nil) == SystemClock.kernelSaysSynchronised())
    }

    @Test func bootIDAndBootClockMatchProc() throws {
        let id = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
        #expect(SystemClock.bootID() == id.trimmingCharacters(in: .whitespacesAndNewlines))
        let uptime = try String(contentsOfFile: "/proc/uptime", encoding: .utf8).split(separator: " ")[0]
        let ms = SystemClock.bootMS()
        #expect(abs(Double(ms) / 1000 - (Double(uptime) ?? 0)) < 1, "\(ms) ms against /proc/uptime \(uptime)")
    }
}
