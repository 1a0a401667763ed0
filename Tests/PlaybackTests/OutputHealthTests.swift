import Foundation
import Playback
import Snapcast
import Testing

/// The player's `.outputHealth` reports ("No audio output"): a snapcast output writing a real FIFO (a
/// snapserver `pipe://` source's) with no reader is silent, with the reason; a reader appearing makes it
/// audible again; a second output that plays (null) keeps it audible; every output turned off is silent with
/// no fault. No sound server needed.
@Suite(.serialized) struct OutputHealthTests {
    /// A FIFO in a fresh folder, with nobody reading it yet.
    static func fifo() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-health-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("snapfifo").path
        guard mkfifo(path, 0o600) == 0 else { throw Shell.Failure(description: "mkfifo \(path) failed") }
        return path
    }

    static func snapcast(_ path: String) -> MultiOutput.Descriptor {
        MultiOutput.Descriptor(name: "Snapcast", plugin: "snapcast") { SnapcastOutput(target: .pipe(path: path)) }
    }

    static func isHealth(_ r: PlayerReport) -> Bool {
        if case .outputHealth = r { return true }
        return false
    }

    @Test func snapcastAloneWithNoReaderIsSilentUntilOneOpensTheFIFO() async throws {
        let path = try Self.fifo()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let player = AudioPlayer(output: .several([Self.snapcast(path)]))
        defer { player.shutdown() }
        let log = ReportLog(player)
        let silent = PlayerReport.outputHealth(
            .silent([OutputFault(name: "Snapcast", plugin: "snapcast", reason: "cannot open the FIFO \(path): No such device or address")]))
        try await log.wait(timeout: 10, "silent") { $0 == silent }
        // snapserver opens its pipe source for reading: the next attempt (within a second) links.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        try await log.wait(timeout: 10, "audible") { $0 == .outputHealth(.audible) }
        #expect(log.events.filter(Self.isHealth) == [silent, .outputHealth(.audible)], "one report per change")
    }

    @Test func anotherOutputThatPlaysKeepsItAudibleAndAllOffIsSilent() async throws {
        let path = try Self.fifo()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let null = MultiOutput.Descriptor(name: "Null Output", plugin: "null") { NullAudioOutput() }
        let player = AudioPlayer(output: .several([null, Self.snapcast(path)]))
        defer { player.shutdown() }
        let log = ReportLog(player)
        try await log.wait(timeout: 10, "connected") {
            if case .outputAvailable = $0 { return true }
            return false
        }
        // The snapcast output has failed its first attempt by now (it is made with the connection).
        try await Task.sleep(for: .milliseconds(1500))
        #expect(log.events.filter(Self.isHealth).isEmpty, "the null output plays: nothing to report")
        player.setOutputEnabled(0, false)
        let snapcastOnly = PlayerReport.outputHealth(
            .silent([OutputFault(name: "Snapcast", plugin: "snapcast", reason: "cannot open the FIFO \(path): No such device or address")]))
        try await log.wait(timeout: 10, "snapcast alone, silent") { $0 == snapcastOnly }
        player.setOutputEnabled(1, false)
        try await log.wait(timeout: 10, "all off") { $0 == .outputHealth(.silent([])) }
        player.setOutputEnabled(0, true)
        try await log.wait(timeout: 10, "null on again") { $0 == .outputHealth(.audible) }
    }
}
