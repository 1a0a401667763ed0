import ClickWheelCore
import Foundation

/// Snapcast's JSON-RPC 2.0 control API (snapserver 0.26, TCP port 1705: one JSON object per line), the
/// part Main menu → Speakers uses: the requests it sends and the messages it reads. Pure: bytes in,
/// values out (the socket is `SnapcastControl`'s).
///
/// Checked against doc/json_rpc_api/control.md and messages recorded from Debian's snapserver 0.26
/// (the unit tests replay them).
enum SnapcastRPC {
    /// What one line from the server says.
    enum Message: Equatable, Sendable {
        /// `Server.GetStatus`'s result, or a `Server.OnUpdate` notification: every group and client.
        case status([Group])
        /// `Client.OnVolumeChanged`.
        case volume(client: String, muted: Bool, percent: Int)
        /// `Client.OnConnect`, `Client.OnDisconnect`: the client whole (its `connected` says which).
        case client(Client)
        /// `Client.OnNameChanged`.
        case name(client: String, name: String)
        /// `Group.OnMute`.
        case groupMute(group: String, muted: Bool)
        /// An answer to a request of ours that changes nothing here (a Set…'s result).
        case result(id: Int)
        /// An error answer (`Client not found`…): its request id and message.
        case error(id: Int?, message: String)
        /// A notification this client does not follow (`Stream.OnProperties`…).
        case ignored(method: String)
    }

    struct Volume: Codable, Equatable, Sendable {
        var muted: Bool
        var percent: Int
    }

    /// A client as the server describes it (the fields used here).
    struct Client: Decodable, Equatable, Sendable {
        struct Config: Decodable, Equatable, Sendable {
            var name: String
            var instance: Int?
            var volume: Volume
        }
        struct Host: Decodable, Equatable, Sendable {
            var name: String
        }
        var id: String
        var connected: Bool
        var config: Config
        var host: Host
    }

    struct Group: Decodable, Equatable, Sendable {
        var id: String
        var muted: Bool
        var clients: [Client]
    }

    /// The envelope of any line: a response (`id` with `result` or `error`) or a notification (`method`).
    private struct Envelope: Decodable {
        struct RPCError: Decodable {
            var message: String
            var data: String?
        }
        var id: Int?
        var method: String?
        var error: RPCError?
    }

    private struct StatusResult: Decodable {
        struct Server: Decodable { var groups: [Group] }
        struct Result: Decodable { var server: Server }
        var result: Result
    }

    private struct Notification<P: Decodable>: Decodable { var params: P }
    private struct ServerParams: Decodable { var server: StatusResult.Server }
    private struct VolumeParams: Decodable {
        var id: String
        var volume: Volume
    }
    private struct ClientParams: Decodable { var client: Client }
    private struct NameParams: Decodable {
        var id: String
        var name: String
    }
    private struct MuteParams: Decodable {
        var id: String
        var mute: Bool
    }

    struct DecodeError: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads one line. `statusRequests`: the ids of our `Server.GetStatus` requests (their results are
    /// the status; other results change nothing).
    static func decode(_ line: Substring, statusRequests: Set<Int>) throws(DecodeError) -> Message {
        let data = Data(line.utf8)
        let decoder = JSONDecoder()
        do {
            let envelope = try decoder.decode(Envelope.self, from: data)
            if let error = envelope.error {
                return .error(id: envelope.id, message: error.data.map { "\(error.message): \($0)" } ?? error.message)
            }
            if let id = envelope.id, envelope.method == nil {
                guard statusRequests.contains(id) else { return .result(id: id) }
                return .status(try decoder.decode(StatusResult.self, from: data).result.server.groups)
            }
            guard let method = envelope.method else {
                throw DecodeError(description: "neither a response nor a notification")
            }
            switch method {
            case "Server.OnUpdate":
                return .status(try decoder.decode(Notification<ServerParams>.self, from: data).params.server.groups)
            case "Client.OnVolumeChanged":
                let p = try decoder.decode(Notification<VolumeParams>.self, from: data).params
                return .volume(client: p.id, muted: p.volume.muted, percent: p.volume.percent)
            case "Client.OnConnect", "Client.OnDisconnect":
                return .client(try decoder.decode(Notification<ClientParams>.self, from: data).params.client)
            case "Client.OnNameChanged":
                let p = try decoder.decode(Notification<NameParams>.self, from: data).params
                return .name(client: p.id, name: p.name)
            case "Group.OnMute":
                let p = try decoder.decode(Notification<MuteParams>.self, from: data).params
                return .groupMute(group: p.id, muted: p.mute)
            default:
                return .ignored(method: method)
            }
        } catch let error as DecodeError {
            throw error
        } catch {
            throw DecodeError(description: "not a Snapcast JSON-RPC message (\(error))")
        }
    }

    /// A request, as one line (newline included).
    enum Request: Equatable, Sendable {
        case getStatus(id: Int)
        /// `Client.SetVolume`: the room's mute and volume together (the server keeps both as given).
        case setVolume(id: Int, client: String, Volume)
        /// `Group.SetMute`.
        case setGroupMute(id: Int, group: String, muted: Bool)

        var line: String {
            struct Body<P: Encodable>: Encodable {
                var id: Int
                var jsonrpc = "2.0"
                var method: String
                var params: P?
            }
            struct ClientVolume: Encodable {
                var id: String
                var volume: Volume
            }
            struct GroupMute: Encodable {
                var id: String
                var mute: Bool
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data: Data?
            switch self {
            case .getStatus(let id):
                data = try? encoder.encode(Body<Int>(id: id, method: "Server.GetStatus", params: nil))
            case .setVolume(let id, let client, let volume):
                data = try? encoder.encode(
                    Body(id: id, method: "Client.SetVolume", params: ClientVolume(id: client, volume: volume)))
            case .setGroupMute(let id, let group, let muted):
                data = try? encoder.encode(
                    Body(id: id, method: "Group.SetMute", params: GroupMute(id: group, mute: muted)))
            }
            // Encoding strings and numbers cannot fail.
            return String(decoding: data ?? Data(), as: UTF8.self) + "\n"
        }
    }
}

/// What the server last said about its clients, kept up to date message by message.
struct SnapcastRooms: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var client: SnapcastRPC.Client
        var group: String
    }
    private(set) var entries: [Entry] = []
    private(set) var groupMuted: [String: Bool] = [:]

    /// Applies one message; true when something the menu shows changed.
    mutating func apply(_ message: SnapcastRPC.Message) -> Bool {
        let before = self
        switch message {
        case .status(let groups):
            entries = groups.flatMap { g in g.clients.map { Entry(client: $0, group: g.id) } }
            groupMuted = Dictionary(groups.map { ($0.id, $0.muted) }) { a, _ in a }
        case .volume(let id, let muted, let percent):
            update(id) { $0.config.volume = SnapcastRPC.Volume(muted: muted, percent: percent) }
        case .client(let client):
            if entries.contains(where: { $0.client.id == client.id }) {
                update(client.id) { $0 = client }
            } else {
                // A new client: its group comes with the next status (asked for on this notice).
                entries.append(Entry(client: client, group: ""))
            }
        case .name(let id, let name):
            update(id) { $0.config.name = name }
        case .groupMute(let group, let muted):
            groupMuted[group] = muted
        case .result, .error, .ignored:
            break
        }
        return self != before
    }

    private mutating func update(_ id: String, _ change: (inout SnapcastRPC.Client) -> Void) {
        guard let i = entries.firstIndex(where: { $0.client.id == id }) else { return }
        change(&entries[i].client)
    }

    func entry(_ id: String) -> Entry? { entries.first { $0.client.id == id } }

    /// The rooms as the menu shows them: the name given in Snapweb, else the host's name (with the
    /// instance number when several clients share a host: "vm 1", "vm 2"); muted when the client or
    /// its group is.
    var rooms: [SpeakerRoom] {
        var perHost: [String: Int] = [:]
        for e in entries where e.client.config.name.isEmpty { perHost[e.client.host.name, default: 0] += 1 }
        return entries.map { e in
            let c = e.client
            var name = c.config.name
            if name.isEmpty {
                name = c.host.name
                if perHost[name, default: 0] > 1 { name += " \(c.config.instance ?? 1)" }
            }
            if name.isEmpty { name = c.id }
            return SpeakerRoom(
                id: c.id, name: name, connected: c.connected,
                muted: c.config.volume.muted || groupMuted[e.group] == true,
                volume: c.config.volume.percent)
        }
    }
}
