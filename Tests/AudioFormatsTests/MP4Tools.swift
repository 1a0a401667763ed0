import ClickWheelTestKit
import Foundation
import Testing

@testable import AudioFormats

/// Makes real MP4 files for the MP4 reader's tests with the tools a person would use (sox for tones of a
/// known length, ffmpeg to encode and mux, python3's mutagen to tag), each test in a folder of its own.
final class MP4Workbench {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp4-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A sine tone of exactly `samples` samples per channel (sox), as 16- or 24-bit WAV.
    func tone(_ name: String = "tone.wav", samples: Int, rate: Int = 44100, channels: Int = 2, bits: Int = 16)
        throws -> String
    {
        let out = path(name)
        try Self.run(
            "sox",
            [
                "-r", "\(rate)", "-c", "\(channels)", "-n", "-b", "\(bits)", out, "synth", "\(samples)s", "sine", "440",
                "vol", "0.5",
            ])
        return out
    }

    /// Runs ffmpeg quietly with `arguments`, overwriting its output.
    func ffmpeg(_ arguments: [String]) throws {
        try Self.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y"] + arguments)
    }

    /// Runs a python3 script with mutagen on `file` (the script sees it as `path`).
    func mutagen(_ file: String, _ script: String) throws {
        let prelude = """
            import sys
            from mutagen.mp4 import MP4, MP4Cover, MP4FreeForm, AtomDataType
            path = sys.argv[1]
            """
        try Self.run("python3", ["-c", prelude + "\n" + script, file])
    }

    func bytes(_ file: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))) }

    func read(_ file: String) throws -> AudioFileInfo { try MP4Reader.read(MemorySource(try bytes(file))) }

    /// Runs a tool found on PATH; throws with its standard error when it fails.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let result = try ChildProcess.run("/usr/bin/env", [tool] + arguments)
        guard result.status == 0 else {
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")): \(result.stderr)")
        }
        return result.stdout
    }

    struct ToolFailure: Error, CustomStringConvertible {
        var description: String
    }
}

/// A `ByteSource` over bytes in memory that counts what is read (the tests' proof that `mdat` is not) and
/// notes a request past the end of the file (a `pread`-backed source would allocate what is asked).
final class CountingSource: ByteSource {
    let inner: MemorySource
    private(set) var bytesRead = 0
    private(set) var reads = 0
    private(set) var pastTheEnd: [(offset: Int, count: Int)] = []

    init(_ bytes: [UInt8]) { inner = MemorySource(bytes) }

    var size: Int { inner.size }

    func read(at offset: Int, count: Int) throws(FormatError) -> [UInt8] {
        if offset < 0 || count > size - offset { pastTheEnd.append((offset, count)) }
        let bytes = try inner.read(at: offset, count: count)
        bytesRead += bytes.count
        reads += 1
        return bytes
    }
}

/// Hand-made atoms for the tests that need a structure no tool writes (a lie, an odd type).
enum MP4Bytes {
    static func atom(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + type.unicodeScalars.map { UInt8($0.value) } + payload
    }

    static func be32(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

    /// An `ilst` item of one `data` atom of the given type indicator.
    static func item(_ type: String, dataType: UInt32, _ value: [UInt8]) -> [UInt8] {
        atom(type, atom("data", be32(dataType) + [0, 0, 0, 0] + value))
    }

    /// Replaces every occurrence of `text` (an atom type, a title) in `bytes` by `with`, of the same length.
    static func renaming(_ text: String, to with: String, in bytes: [UInt8]) -> [UInt8] {
        let from = Array(text.unicodeScalars.map { UInt8($0.value) })
        let to = Array(with.unicodeScalars.map { UInt8($0.value) })
        precondition(from.count == to.count)
        var out = bytes
        var i = 0
        while i + from.count <= out.count {
            if out[i..<i + from.count].elementsEqual(from) { out.replaceSubrange(i..<i + from.count, with: to) }
            i += 1
        }
        return out
    }

    /// Where `text` (an atom type, a title, in Latin-1) first appears.
    static func find(_ text: String, in bytes: some Collection<UInt8>) -> Int? {
        let t = Array(text.unicodeScalars.map { UInt8($0.value) })
        let b = Array(bytes)
        guard b.count >= t.count else { return nil }
        return (0...(b.count - t.count)).first { b[$0..<$0 + t.count].elementsEqual(t) }
    }
}

/// Edits of a real file's `moov` for the tests: its children rewritten, the sizes fixed. The file must
/// end with `moov` (ffmpeg's default), so that nothing after it moves and the chunk offsets stay true.
enum MP4Surgery {
    struct NotLast: Error {}

    /// The file with `moov`'s children passed through `edit` (each child's whole bytes, header included).
    static func editingMoov(in file: [UInt8], _ edit: ([[UInt8]]) -> [[UInt8]]) throws -> [UInt8] {
        var offset = 0
        while offset + 8 <= file.count {
            let size = Int(file[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) })
            let type = String(decoding: file[offset + 4..<offset + 8], as: UTF8.self)
            if type == "moov" {
                guard offset + size == file.count else { throw NotLast() }
                var children: [[UInt8]] = []
                var c = offset + 8
                while c + 8 <= file.count {
                    let s = Int(file[c..<c + 4].reduce(0) { $0 << 8 | UInt32($1) })
                    children.append(Array(file[c..<c + s]))
                    c += s
                }
                return Array(file[..<offset]) + MP4Bytes.atom("moov", edit(children).flatMap { $0 })
            }
            offset += size
        }
        throw NotLast()
    }

    /// The file with `moov/udta` replaced by `udta` (added when there was none).
    static func replacingUdta(in file: [UInt8], with udta: [UInt8]) throws -> [UInt8] {
        try editingMoov(in: file) { children in
            children.filter { String(decoding: $0[4..<8], as: UTF8.self) != "udta" } + [udta]
        }
    }
}
