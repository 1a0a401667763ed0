@testable import Snapcast
import ClickWheelCore
import Testing

/// Snapcast's JSON-RPC control messages (`SnapcastRPC`, `SnapcastRooms`) on lines recorded from the real
/// snapserver 0.26 here (Debian's package; two snapclients started as contrib/ci/snapcast-start.sh does,
/// `--hostID room-a -i 1` and `--hostID room-b -i 2`, on one host named "vm"), with python's socket module
/// on port 1705: a Server.GetStatus, then a second connection's notifications while the first set a volume,
/// a name, a group's mute, and room B's snapclient was stopped and started again.
struct SnapcastRPCTests {
    enum Recorded {
        static let getstatus =
            #"{"id":1,"jsonrpc":"2.0","result":{"server":{"groups":[{"clients":[{"config":{"instance":2,"latency":0,"name":"","volume":{"muted":false,"percent":100}},"connected":true,"host":{"arch":"x86_64","ip":"127.0.0.1","mac":"02:fc:00:00:00:01","name":"vm","os":"Debian GNU/Linux 12 (bookworm)"},"id":"room-b#2","lastSeen":{"sec":1795767754,"usec":809930},"snapclient":{"name":"Snapclient","protocolVersion":2,"version":"0.26.0"}}],"id":"35ec270d-98dd-b52d-deb0-f0232355d93d","muted":false,"name":"","stream_id":"ClickWheel"},{"clients":[{"config":{"instance":1,"latency":0,"name":"","volume":{"muted":false,"percent":100}},"connected":true,"host":{"arch":"x86_64","ip":"127.0.0.1","mac":"02:fc:00:00:00:01","name":"vm","os":"Debian GNU/Linux 12 (bookworm)"},"id":"room-a","lastSeen":{"sec":1795767754,"usec":836138},"snapclient":{"name":"Snapclient","protocolVersion":2,"version":"0.26.0"}}],"id":"ab6e72d2-c5a9-69e4-46b2-35beb8ab657b","muted":false,"name":"","stream_id":"ClickWheel"}],"server":{"host":{"arch":"x86_64","ip":"","mac":"","name":"vm","os":"Debian GNU/Linux 12 (bookworm)"},"snapserver":{"controlProtocolVersion":1,"name":"Snapserver","protocolVersion":1,"version":"0.26.0"}},"streams":[{"id":"ClickWheel","properties":{"canControl":false,"canGoNext":false,"canGoPrevious":false,"canPause":false,"canPlay":false,"canSeek":false},"status":"idle","uri":{"fragment":"","host":"127.0.0.1:15953","path":"","query":{"chunk_ms":"20","codec":"pcm","mode":"server","name":"ClickWheel","sampleformat":"44100:16:2"},"raw":"tcp://127.0.0.1:15953/?chunk_ms=20&codec=pcm&mode=server&name=ClickWheel&sampleformat=44100:16:2","scheme":"tcp"}}]}}}"#
        static let onvolumechanged =
            #"{"jsonrpc":"2.0","method":"Client.OnVolumeChanged","params":{"id":"room-b#2","volume":{"muted":false,"percent":37}}}"#
        static let onnamechanged =
            #"{"jsonrpc":"2.0","method":"Client.OnNameChanged","params":{"id":"room-b#2","name":"Kitchen"}}"#
        static let onmute =
            #"{"jsonrpc":"2.0","method":"Group.OnMute","params":{"id":"35ec270d-98dd-b52d-deb0-f0232355d93d","mute":true}}"#
        static let ondisconnect =
            #"{"jsonrpc":"2.0","method":"Client.OnDisconnect","params":{"client":{"config":{"instance":2,"latency":0,"name":"","volume":{"muted":false,"percent":100}},"connected":false,"host":{"arch":"x86_64","ip":"127.0.0.1","mac":"02:fc:00:00:00:01","name":"vm","os":"Debian GNU/Linux 12 (bookworm)"},"id":"room-b#2","lastSeen":{"sec":1795767763,"usec":701752},"snapclient":{"name":"Snapclient","protocolVersion":2,"version":"0.26.0"}},"id":"room-b#2"}}"#
        static let onconnect =
            #"{"jsonrpc":"2.0","method":"Client.OnConnect","params":{"client":{"config":{"instance":2,"latency":0,"name":"","volume":{"muted":false,"percent":100}},"connected":true,"host":{"arch":"x86_64","ip":"127.0.0.1","mac":"02:fc:00:00:00:01","name":"vm","os":"Debian GNU/Linux 12 (bookworm)"},"id":"room-b#2","lastSeen":{"sec":1795767766,"usec":817791},"snapclient":{"name":"Snapclient","protocolVersion":2,"version":"0.26.0"}},"id":"room-b#2"}}"#
        static let setvolumeResponse = #"{"id":2,"jsonrpc":"2.0","result":{"volume":{"muted":false,"percent":37}}}"#
        static let setmuteResponse = #"{"id":4,"jsonrpc":"2.0","result":{"mute":true}}"#
        static let error =
            #"{"error":{"code":-32603,"data":"Client not found","message":"Internal error"},"id":6,"jsonrpc":"2.0"}"#
    }

    func decode(_ line: String, status: Set<Int> = []) throws -> SnapcastRPC.Message {
        try SnapcastRPC.decode(line[...], statusRequests: status)
    }

    @Test func getStatusListsBothRoomsInTheirGroups() throws {
        guard case .status(let groups) = try decode(Recorded.getstatus, status: [1]) else {
            Issue.record("not a status")
            return
        }
        #expect(groups.map(\.clients.count) == [1, 1])
        let b = groups[0].clients[0]
        #expect(b.id == "room-b#2" && b.connected && b.host.name == "vm" && b.config.name == "")
        #expect(b.config.instance == 2 && b.config.volume == SnapcastRPC.Volume(muted: false, percent: 100))
        #expect(groups[1].clients[0].id == "room-a" && !groups[1].muted)
    }

    @Test func aResultNotAskedAsStatusChangesNothing() throws {
        #expect(try decode(Recorded.getstatus, status: [7]) == .result(id: 1))
        #expect(try decode(Recorded.setvolumeResponse) == .result(id: 2))
        #expect(try decode(Recorded.setmuteResponse) == .result(id: 4))
        #expect(try decode(Recorded.error) == .error(id: 6, message: "Internal error: Client not found"))
    }

    @Test func notificationsAreRead() throws {
        #expect(try decode(Recorded.onvolumechanged) == .volume(client: "room-b#2", muted: false, percent: 37))
        #expect(try decode(Recorded.onnamechanged) == .name(client: "room-b#2", name: "Kitchen"))
        #expect(try decode(Recorded.onmute) == .groupMute(group: "35ec270d-98dd-b52d-deb0-f0232355d93d", muted: true))
        guard case .client(let gone) = try decode(Recorded.ondisconnect),
            case .client(let back) = try decode(Recorded.onconnect)
        else {
            Issue.record("not clients")
            return
        }
        #expect(gone.id == "room-b#2" && !gone.connected)
        #expect(back.id == "room-b#2" && back.connected)
        #expect(
            try decode(#"{"jsonrpc":"2.0","method":"Stream.OnProperties","params":{"id":"ClickWheel"}}"#)
                == .ignored(method: "Stream.OnProperties"))
    }

    @Test func aLineThatIsNotSnapcastIsAnError() {
        #expect(throws: SnapcastRPC.DecodeError.self) { try decode("hello") }
        #expect(throws: SnapcastRPC.DecodeError.self) { try decode(#"{"jsonrpc":"2.0"}"#) }
        #expect(throws: SnapcastRPC.DecodeError.self) {
            try decode(#"{"jsonrpc":"2.0","method":"Client.OnVolumeChanged","params":{}}"#)
        }
    }

    @Test func roomsFollowTheNotifications() throws {
        var rooms = SnapcastRooms()
        #expect(rooms.apply(try decode(Recorded.getstatus, status: [1])))
        // Both unnamed on one host: the host name and the instance.
        #expect(rooms.rooms.map(\.name) == ["vm 2", "vm 1"])
        #expect(rooms.apply(try decode(Recorded.onnamechanged)))
        #expect(rooms.rooms.map(\.name) == ["Kitchen", "vm"])
        #expect(rooms.apply(try decode(Recorded.onvolumechanged)))
        #expect(rooms.rooms[0].volume == 37 && rooms.rooms[0].on)
        // The group's mute mutes its room only.
        #expect(rooms.apply(try decode(Recorded.onmute)))
        #expect(rooms.rooms.map(\.muted) == [true, false])
        #expect(rooms.apply(try decode(Recorded.ondisconnect)))
        #expect(rooms.rooms.map(\.connected) == [false, true])
        #expect(rooms.apply(try decode(Recorded.onconnect)))
        #expect(rooms.rooms.map(\.connected) == [true, true])
        #expect(!rooms.apply(try decode(Recorded.setvolumeResponse)))
    }

    @Test func requestsAreOneLineOfJSONRPC() {
        #expect(
            SnapcastRPC.Request.getStatus(id: 1).line == #"{"id":1,"jsonrpc":"2.0","method":"Server.GetStatus"}"# + "\n"
        )
        #expect(
            SnapcastRPC.Request.setVolume(id: 2, client: "room-b#2", .init(muted: true, percent: 37)).line
                == #"{"id":2,"jsonrpc":"2.0","method":"Client.SetVolume","params":{"id":"room-b#2","volume":{"muted":true,"percent":37}}}"#
                + "\n")
        #expect(
            SnapcastRPC.Request.setGroupMute(id: 3, group: "g\"1", muted: false).line
                == #"{"id":3,"jsonrpc":"2.0","method":"Group.SetMute","params":{"id":"g\"1","mute":false}}"# + "\n")
    }
}
