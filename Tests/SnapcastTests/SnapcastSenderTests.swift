import Foundation
import Playback
import Snapcast
import Testing

/// What the snapcast output puts on the wire, read from a real FIFO (a snapserver `pipe://` source's):
/// the stream's own format at full volume goes out exactly as queued; a lower volume scales it, another
/// rate is converted to 44.1 kHz. No snapserver needed.
@Suite(.serialized) struct SnapcastSenderTests {
    /// Plays `frames` of a ramp (left rising, right falling) in `format` at `volume` through a snapcast
    /// output writing a FIFO, and returns every byte the FIFO's reader got (what snapserver would read).
    static func sent(_ format: PCMFormat, volume: Int, frames: Int) throws -> (queued: [Int16], sent: [Int16]) {
        let path = try fifo()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let output = SnapcastOutput(target: .pipe(path: path))
        _ = try output.connect(wake: {})
        try output.openStream(format: format, volume: volume, paused: false)
        var queued: [Int16] = []
        for i in 0..<frames {
            queued.append(Int16(truncatingIfNeeded: i * 7))
            if format.channels > 1 { queued.append(Int16(truncatingIfNeeded: -i * 5)) }
        }
        var bytes: [UInt8] = []
        var written = 0
        let deadline = Date().addingTimeInterval(20)
        let expected = frames * SnapcastOutput.streamFormat.sampleRate / format.sampleRate * 4
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var lastByte = Date()
        // Written as the output takes it (its queue holds 150 ms), read as the sender sends it, until all
        // of it came or nothing more did for half a second after the last write (a converted stream's last
        // frame waits for a next one).
        while Date() < deadline && bytes.count < expected
            && !(written == frames && Date().timeIntervalSince(lastByte) > 0.5)
        {
            let room = output.writableBytes() / (2 * format.channels)
            if written < frames && room > 0 {
                let n = min(room, frames - written)
                try queued[(written * format.channels)..<((written + n) * format.channels)].withUnsafeBytes {
                    try output.write($0)
                }
                written += n
            }
            let got = read(reader, &buffer, buffer.count)
            if got > 0 {
                bytes += buffer[0..<got]
                lastByte = Date()
            } else {
                usleep(5_000)
            }
        }
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self).prefix(bytes.count / 2)) }
        return (queued, samples)
    }

    @Test func theStreamFormatAtFullVolumeGoesOutAsQueued() throws {
        let (queued, sent) = try Self.sent(SnapcastOutput.streamFormat, volume: 100, frames: 22_050)
        #expect(sent.count == queued.count, "half a second: every frame sent, nothing added")
        #expect(sent == queued, "bit for bit")
    }

    @Test func aLowerVolumeScalesOnTheCubicScale() throws {
        let (queued, sent) = try Self.sent(SnapcastOutput.streamFormat, volume: 50, frames: 22_050)
        #expect(sent.count == queued.count)
        // 50 → 0.125 (−18 dB), rounded to nearest.
        let expected = queued.map { Int16((Double($0) * 0.125).rounded()) }
        let off = zip(sent, expected).filter { abs(Int($0) - Int($1)) > 1 }.count
        #expect(off == 0, "\(off) samples off by more than one step")
    }

    @Test func anotherRateIsConvertedToTheStreamRate() throws {
        let (_, sent) = try Self.sent(PCMFormat(sampleRate: 22_050, channels: 1), volume: 100, frames: 11_025)
        // Half a second at 22.05 kHz mono: half a second of 44.1 kHz stereo (the last frame needs a next one).
        #expect(abs(sent.count / 2 - 22_050) <= 2, "\(sent.count / 2) frames")
        // Mono doubled: left equals right.
        #expect(stride(from: 0, to: sent.count - 1, by: 2).allSatisfy { sent[$0] == sent[$0 + 1] })
    }
}

/// A FIFO in a fresh folder, with nobody reading it yet (a snapserver `pipe://` source's).
func fifo() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-snapfifo-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent("snapfifo").path
    guard mkfifo(path, 0o600) == 0 else { throw FIFOError(path: path) }
    return path
}

struct FIFOError: Error, CustomStringConvertible {
    let path: String
    var description: String { "mkfifo \(path) failed" }
}
