import AudioFormats
import ClickWheelTestKit
import Foundation
import Testing

/// Runs the real encoders (sox, ffmpeg, flac, metaflac, oggenc, vorbiscomment, opusenc) that make the
/// test files, in a scratch folder per test. A missing tool fails the test with its name (never a skip).
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("audioformats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Runs `tool` with `arguments` in the folder; throws with its output when it fails.
    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> String {
        // ChildProcess (posix_spawn and waitpid), not Foundation's Process, whose SIGCHLD monitor on
        // libdispatch is no safe thing to start from many tests at once.
        let result = try ChildProcess.run(try Self.locate(tool), arguments, directory: url.path)
        let text = result.stdout + result.stderr
        guard result.status == 0 else {
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    /// A sine tone of `samples` frames made by sox at `rate` (the input's rate: no resampling), as `name` in the
    /// folder; sox picks the format by the suffix.
    func tone(_ name: String, rate: Int = 44100, channels: Int = 2, bits: Int = 16, samples: Int, extra: [String] = [])
        throws
    {
        try run(
            "sox",
            ["-r", "\(rate)", "-c", "\(channels)", "-n", "-b", "\(bits)"] + extra + [
                path(name), "synth", "\(samples)s", "sine", "440",
            ])
    }

    func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url.appendingPathComponent(name))) }

    func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: url.appendingPathComponent(name))
    }

    static func locate(_ tool: String) throws -> String {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for folder in folders + ["/usr/bin", "/usr/local/bin"] {
            let candidate = "\(folder)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ToolFailure(
            description: "\(tool) is not installed: the format tests need it (see contrib/ci/install-deps.sh)")
    }
}

struct ToolFailure: Error, CustomStringConvertible {
    var description: String
}

/// A `MemorySource` that counts what is read from it: the readers must touch headers and tails only.
final class TallySource: ByteSource {
    let inner: MemorySource
    private(set) var reads = 0
    private(set) var bytesRead = 0
    /// Every range read, in order.
    private(set) var ranges: [Range<Int>] = []

    init(_ bytes: [UInt8]) { inner = MemorySource(bytes) }
    var size: Int { inner.size }

    func read(at offset: Int, count: Int) throws(FormatError) -> [UInt8] {
        let bytes = try inner.read(at: offset, count: count)
        reads += 1
        bytesRead += bytes.count
        ranges.append(offset..<offset + bytes.count)
        return bytes
    }

    /// Whether any read reached into `range` past the end of the 4 KiB page `range` starts in: the page
    /// cache brings in whole pages, so a read may cover the rest of that page, and nothing after it.
    func readPastItsFirstPage(_ range: Range<Int>) -> Bool {
        let pageEnd = (range.lowerBound / 4096 + 1) * 4096
        return ranges.contains { max($0.lowerBound, pageEnd) < min($0.upperBound, range.upperBound) }
    }
}

/// Where `needle` first occurs in `haystack`.
func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
    for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
        if haystack[i..<i + needle.count].elementsEqual(needle) { return i }
    }
    return nil
}

/// Mangled copies of a real file: cut at many lengths, bytes flipped through the header region. Each
/// must read as an error or an info, never a trap.
func mangled(_ bytes: [UInt8]) -> [[UInt8]] {
    var variants: [[UInt8]] = []
    for cut in [0, 1, 4, 8, 11, 12, 20, 36, 44, 60, 100, 200, 500, bytes.count / 2, bytes.count - 1]
    where cut < bytes.count {
        variants.append(Array(bytes[..<cut]))
    }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<300 {
        var copy = bytes
        for _ in 0..<3 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let index = Int(state >> 33) % min(copy.count, 4096)
            copy[index] ^= UInt8(truncatingIfNeeded: state >> 17) | 1
        }
        variants.append(copy)
    }
    return variants
}

/// The error a read ends in, or nil when it returned an info.
func failure(_ body: () throws(FormatError) -> AudioFileInfo) -> FormatError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
