import ClickWheelTestKit
import Foundation
import Testing

/// MPD's client-to-client messages on the real `clickwheel run`: line by line against a real MPD
/// 0.23.12 (`Transcripts/messages.txt`, whole answers), then what takes several clients: who hears
/// `subscription` and `message`, the 64 unread messages a client may hold, subscriptions leaving
/// with their client.
@Suite(.serialized) struct ClientMessagesTests {
    static let sections = Transcript.sections("messages.txt")

    @Test func theFixtureCoversEveryCommand() {
        let all = Self.sections.flatMap(\.requests).map(\.text)
        #expect(Self.sections.count == 3)
        for command in ["subscribe", "unsubscribe", "channels", "sendmessage", "readmessages"] {
            #expect(all.contains { $0.hasPrefix(command) }, "\(command)")
        }
    }

    @Test(arguments: sections) func answersAsMPD(_ section: Transcript.Section) throws {
        try Transcript.replay(section)
    }

    @Test func messagesReachTheirSubscribersOnly() throws {
        let service = try ControlSocketServiceTests.Service()
        let (sender, reader, bystander) = (try RawClient(service.socket), try RawClient(service.socket), try RawClient(service.socket))
        for c in [sender, reader, bystander] { #expect(c.response().hasPrefix("OK MPD ")) }
        // Subscribing tells everyone.
        bystander.send("idle subscription message\n")
        #expect(reader.roundTrip("subscribe mpdscribble") == "OK\n")
        #expect(bystander.response() == "changed: subscription\nOK\n")
        // A message wakes its subscriber, not the others.
        bystander.send("idle message\n")
        reader.send("idle message player\n")
        #expect(sender.roundTrip("sendmessage mpdscribble love") == "OK\n")
        #expect(reader.response() == "changed: message\nOK\n")
        #expect(reader.roundTrip("readmessages") == "channel: mpdscribble\nmessage: love\nOK\n")
        #expect(bystander.roundTrip("noidle") == "OK\n", "the bystander heard nothing")
        // 64 unread messages at most: the 65th is taken by nobody.
        for i in 0..<64 { #expect(sender.roundTrip("sendmessage mpdscribble m\(i)") == "OK\n") }
        #expect(sender.roundTrip("sendmessage mpdscribble more") == "ACK [50@0] {sendmessage} nobody is subscribed to this channel\n")
        let unread = reader.roundTrip("readmessages")
        #expect(unread.components(separatedBy: "message: ").count - 1 == 64)
        #expect(unread.hasSuffix("message: m63\nOK\n"))
        // A client that leaves takes its subscriptions with it.
        #expect(sender.roundTrip("channels") == "channel: mpdscribble\nOK\n")
        shutdown(reader.fd, Int32(SHUT_RDWR))
        var channels = ""
        for _ in 0..<50 {
            channels = sender.roundTrip("channels")
            if channels == "OK\n" { break }
            usleep(20_000)
        }
        #expect(channels == "OK\n")
    }
}
