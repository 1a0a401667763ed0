import ClickWheelTestKit
import Foundation
import Testing

/// The last differences measured between ClickWheel and MPD 0.23.12, side by side: listings of a
/// folder that begin with the folder, `song`/`nextsong` after `random` while stopped, the queue version
/// after a command list whose `add` fails, `stats`' `playtime`. The real `clickwheel run` answers each
/// request of `Transcripts/mpd-differences.txt` (whole answers recorded from a real MPD with
/// `contrib/dev/record-transcript.py --full`) line for line, after `normalized`.
@Suite(.serialized) struct MPDDifferencesTests {
    static let sections = Transcript.sections("mpd-differences.txt", commandLists: true)

    /// What must differ, made equal: times (MPD gives a folder its own mtime, ClickWheel its newest
    /// song's; uptime and playtime depend on the moment), the `volume` line (ClickWheel has a mixer,
    /// the recording's MPD had only a null output), song lengths (ClickWheel's are exact gapless
    /// ones, README) and the library counts of `stats` (ClickWheel counts files MPD skips). Every other
    /// line, and the order of all, is compared as it is.
    static func normalized(_ lines: [String]) -> [String] {
        let valueless: Set<String> = [
            "Last-Modified", "Time", "duration", "Format", "uptime", "playtime", "artists", "albums", "songs",
            "db_playtime", "db_update",
        ]
        return lines.compactMap { line in
            guard let colon = line.range(of: ": ") else { return line }
            let name = String(line[..<colon.lowerBound])
            if name == "volume" { return nil }
            return valueless.contains(name) ? name + ": …" : line
        }
    }

    @Test func theFixtureCoversEachDifference() {
        let all = Self.sections.flatMap(\.requests)
        #expect(Self.sections.count == 4)
        #expect(all.allSatisfy { !$0.expected.isEmpty })
        // The recording shows what ClickWheel once answered otherwise.
        let listall = all.first { $0.text == "listall \"Artist Name\"" }
        #expect(listall?.expected.first == "directory: Artist Name")
        #expect(all.contains { $0.text == "stats" && $0.expected.contains("playtime: 0") })
        #expect(all.contains { $0.text.hasPrefix("command_list_begin\nadd Durations\nadd \"No Such Folder\"") })
    }

    @Test(arguments: sections) func answersAsMPD(_ section: Transcript.Section) throws {
        try Transcript.replay(section, normalized: Self.normalized)
    }

    /// `playtime` counts the time the player plays, not paused: the test library's short tracks play
    /// round with repeat on (the null output keeps real time).
    @Test func playtimeCountsTheTimePlayed() throws {
        let service = try ControlSocketServiceTests.Service()
        _ = try service.mpc("update", "--wait")
        let client = try RawClient(service.socket)
        _ = client.response()
        func playtime() -> Int? {
            let stats = client.roundTrip("stats").split(separator: "\n")
            return stats.first { $0.hasPrefix("playtime: ") }.flatMap { Int($0.dropFirst(10)) }
        }
        #expect(playtime() == 0)
        _ = client.roundTrip("add Durations")
        _ = client.roundTrip("repeat 1")
        _ = client.roundTrip("play")
        usleep(2_600_000)
        _ = client.roundTrip("pause 1")
        let played = try #require(playtime())
        #expect((2...3).contains(played), "\(played)")
        usleep(1_500_000)
        #expect(playtime() == played)  // paused: no time counts
        _ = client.roundTrip("pause 0")
        usleep(1_200_000)
        _ = client.roundTrip("stop")
        let more = try #require(playtime())
        #expect(more >= played + 1 && more <= played + 2, "\(played) then \(more)")
    }
}
