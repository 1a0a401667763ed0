import Foundation
import Playback
import Synchronization
import Testing

/// The speech stage is bypassed for music and at 1x: the stream gets the decoder's samples bit for bit
/// (what the gapless and bit-exact tests rely on). On the null output, so it runs without a server.
@Suite struct SpeedBypassTests {
    /// The bytes an output was given, kept where the test can read them after the audio thread wrote them.
    final class Written: Sendable {
        let bytes = Mutex<[UInt8]>([])
    }

    /// A null output (real-time clock) that keeps every byte written after the last one.
    final class RecordingOutput: ForwardingOutput {
        let written: Written
        init(_ written: Written) {
            self.written = written
            super.init(NullAudioOutput())
        }
        override func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) {
            written.bytes.withLock { $0.append(contentsOf: bytes) }
            try super.write(bytes)
        }
    }

    /// Plays `track` to its end at `speed` on a recording null output; returns the bytes written.
    func output(of track: AudioTrack, speed: Double) async throws -> [UInt8] {
        let written = Written()
        let player = AudioPlayer(output: .custom { RecordingOutput(written) }, positionInterval: 1)
        defer { player.shutdown() }
        let log = ReportLog(player)
        player.setSpokenWordSpeed(speed)
        player.play(track)
        try await log.wait(timeout: 20, "finished") { $0 == .finished(trackID: track.id) }
        return written.bytes.withLock { $0 }
    }

    @Test("music at a spoken-word speed of 2x, and spoken word at 1x, are written bit for bit as decoded")
    func bypassIsBitExact() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.tone("sweep", frequency: "200-4000", seconds: 1)
        let reference = try await output(of: AudioTrack(id: 1, path: path), speed: 1)
        #expect(reference.count > 44_100 * 4 * 9 / 10)
        let music = try await output(of: AudioTrack(id: 2, path: path), speed: 2)
        #expect(music == reference)
        let spoken = try await output(of: AudioTrack(id: 3, path: path, spokenWord: true), speed: 1)
        #expect(spoken == reference)
        let faster = try await output(of: AudioTrack(id: 4, path: path, spokenWord: true), speed: 2)
        #expect(faster != reference)
        // 1 s at 2x: about half as many frames (the 50 ms of silence after the last track aside).
        let ratio = Double(reference.count) / Double(faster.count)
        #expect(ratio > 1.8 && ratio < 2.1, "\(reference.count) bytes at 1x, \(faster.count) at 2x")
    }
}
