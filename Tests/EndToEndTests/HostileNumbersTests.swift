import ClickWheelTestKit
import Foundation
import Testing

/// Every numeric argument a client can send, with the values that once stopped the service (`seek 0
/// nan` trapped converting a Double to an Int) and their kin, sent to the real `clickwheel run` over
/// its socket. Each answer must equal the real MPD 0.23.12's byte for byte
/// (`Transcripts/hostile-numbers.txt`, recorded with `contrib/dev/record-transcript.py`), and after
/// every line a second connection must still get `OK` to `ping`.
@Suite(.serialized) struct HostileNumbersTests {
    static let sections = Transcript.sections("hostile-numbers.txt")

    @Test func theFixtureCoversEveryConversion() {
        #expect(Self.sections.count == 14)
        #expect(Self.sections.allSatisfy { s in s.requests.allSatisfy { !$0.expected.isEmpty } })
        let all = Self.sections.flatMap(\.requests).map(\.text)
        for hostile in ["seek 0 nan", "seekid {id} inf", "seekcur +1e300", "setvol 9223372036854775807", "binarylimit -1",
            "prio 256 0", "wheel 9223372036854775807", "hold menu 9223372036854775807", "move 1 +18446744073709551616",
            "find \"(Artist != '')\" window 0:9223372036854775807", "plchangesposid 4294967296"]
        {
            #expect(all.contains(hostile), "\(hostile)")
        }
    }

    @Test(arguments: sections) func answersAsMPDAndKeepsServing(_ section: Transcript.Section) throws {
        let service = try ControlSocketServiceTests.Service()
        _ = try service.mpc("update", "--wait")
        let client = try RawClient(service.socket)
        #expect(client.response().hasPrefix("OK MPD "))
        var lastID = ""
        for request in section.requests {
            let text = request.text.replacingOccurrences(of: "{id}", with: lastID)
            let answer = client.roundTrip(text)
            let lines = answer.split(separator: "\n").map(String.init)
            #expect(lines.last == request.expected.last, "line \(request.line): \(text) -> \(answer)")
            if text.hasPrefix("addid "), let id = lines.first(where: { $0.hasPrefix("Id: ") }) {
                lastID = String(id.dropFirst(4))
            }
            // The service is still there for everyone else.
            let other = try RawClient(service.socket)
            #expect(other.response().hasPrefix("OK MPD "), "line \(request.line): no greeting after \(text)")
            #expect(other.roundTrip("ping") == "OK\n", "line \(request.line): no pong after \(text)")
        }
    }
}
