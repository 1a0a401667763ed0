import Foundation
import Playback
import Synchronization
import Testing

/// The player on the null output with tracks of different formats in a row: the join is exact.
@Suite struct MixedFormatPlayerTests {
    /// Keeps a copy of everything written to the stream (the null output underneath keeps real time).
    final class Recording: Sendable {
        let samples = Mutex<[Int16]>([])
        let formats = Mutex<[PCMFormat]>([])
    }

    final class RecordingOutput: ForwardingOutput {
        let recording: Recording
        init(_ recording: Recording) {
            self.recording = recording
            super.init(NullAudioOutput())
        }
        override func openStream(format: PCMFormat, volume: Int, paused: Bool) throws(AudioOutputError) {
            recording.formats.withLock { $0.append(format) }
            try super.openStream(format: format, volume: volume, paused: paused)
        }
        override func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) {
            recording.samples.withLock { $0 += bytes.bindMemory(to: Int16.self) }
            try super.write(bytes)
        }
    }

    @Test("FLAC then AAC then Ogg Vorbis, all 44.1 kHz stereo: one stream, frames = the sum, samples as decoded")
    func mixedJoin() async throws {
        let fixtures = try Fixtures()
        // Each track handed over as the one before is reported started (`handOver`), as the engine does.
        let lengths = [132_300, 120_001, 100_003]
        let files = try zip(["flac", "m4a", "ogg"], lengths).enumerated().map { i, pair in
            let wav = try fixtures.source("src\(i)", samples: pair.1, frequency: 330 + 110 * i)
            return try fixtures.encode(wav, as: pair.0, name: "track\(i)")
        }
        let expected = try files.map { try PlaybackTestDecode.samples($0) }
        for (e, n) in zip(expected, lengths) { #expect(e.count == 2 * n) }
        let recording = Recording()
        let (player, log) = ReportLog.player(output: .custom { RecordingOutput(recording) }, positionInterval: 0.1)
        defer { player.shutdown() }
        let tracks = files.enumerated().map { AudioTrack(id: $0.offset + 1, path: $0.element) }
        log.handOver(tracks)
        try await log.wait(timeout: 15, "finished(3)") { $0 == .finished(trackID: 3) }
        #expect(!log.events.contains { if case .failed = $0 { true } else { false } })
        #expect(recording.formats.withLock { $0 } == [PCMFormat(sampleRate: 44_100, channels: 2)], "one stream")
        let written = recording.samples.withLock { $0 }
        let joined = expected.flatMap { $0 }
        #expect(written.count >= joined.count, "\(written.count / 2) frames written for \(joined.count / 2)")
        let mismatch = zip(written, joined).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(mismatch == nil, "the written PCM differs from the decodes end to end at frame \((mismatch ?? 0) / 2)")
        // After the last track only silence (the player's short tail against a cut drain).
        let tail = written.dropFirst(joined.count)
        #expect(tail.allSatisfy { $0 == 0 }, "\(tail.count / 2) frames after the tracks, not all silent")
        #expect(tail.count <= 44_100 / 10 * 2)
    }
}
