import MPDProtocol
import Synchronization

/// MPD's client-to-client messages: channels clients subscribe to, and the messages sent on them,
/// queued for each subscriber until it reads them (`subscribe`, `unsubscribe`, `channels`,
/// `sendmessage`, `readmessages`; the `subscription` and `message` idle events). mpdscribble, for
/// one, subscribes to its own channel to hear "love" requests from other clients.
///
/// MPD 0.23's rules, as recorded from it here: channel names are letters, digits and `_-.:`; a client
/// holds at most 16 subscriptions and 64 unread messages (a message to a full queue is not delivered,
/// and a message nobody takes is refused); subscribing and unsubscribing tell every client
/// (`subscription`), a delivered message tells its receivers (`message`); a client that leaves takes
/// its subscriptions with it, quietly.
///
/// Thread rules: any thread (one mutex); `deliver` is called outside it.
final class MessageBoard: Sendable {
    static let maxSubscriptions = 16
    static let maxMessages = 64

    private struct Subscriber {
        var channels: Set<String> = []
        var messages: [(channel: String, text: String)] = []
    }

    private let clients = Mutex<[UInt64: Subscriber]>([:])

    /// Where idle events go: to every client (nil), or to these clients only.
    ///
    /// The closure is kept in a struct, not bare: a function value that passes through a generic `inout`
    /// (`Mutex.withLock`) is written back re-abstracted, wrapped in two more thunks, even when only read.
    /// Kept bare, every `subscribe`, `unsubscribe` and `sendmessage` deepens the chain the next one calls
    /// through: thread stacks and the thunks' contexts grow with every message, towards a stack overflow
    /// (`MessageBoardTests`; how the soak found it: contrib/soak/README.md, Found).
    struct Sink: Sendable {
        let call: @Sendable (MPDIdleSubsystems, Set<UInt64>?) -> Void
    }
    private let delivery = Mutex<Sink?>(nil)

    /// Sets where the board's idle events go (the server, once it runs).
    func deliver(to sink: @escaping @Sendable (MPDIdleSubsystems, Set<UInt64>?) -> Void) {
        delivery.withLock { $0 = Sink(call: sink) }
    }

    static func isValid(_ channel: String) -> Bool {
        !channel.isEmpty
            && channel.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                    || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
                    || c == UInt8(ascii: ":")
            }
    }

    func subscribe(_ client: UInt64, to channel: String) throws(MPDError) {
        guard Self.isValid(channel) else { throw .argument("invalid channel name") }
        let outcome = clients.withLock { all -> MPDError? in
            var s = all[client] ?? Subscriber()
            if s.channels.contains(channel) { return .exist("already subscribed to this channel") }
            if s.channels.count >= Self.maxSubscriptions { return .exist("subscription list is full") }
            s.channels.insert(channel)
            all[client] = s
            return nil
        }
        if let outcome { throw outcome }
        send(.subscription, to: nil)
    }

    func unsubscribe(_ client: UInt64, from channel: String) throws(MPDError) {
        let removed = clients.withLock { $0[client]?.channels.remove(channel) != nil }
        guard removed else { throw .noExist("not subscribed to this channel") }
        send(.subscription, to: nil)
    }

    /// Every channel someone is subscribed to, by name.
    func channels() -> [String] {
        clients.withLock { Set($0.values.flatMap(\.channels)) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Queues `text` for every subscriber of `channel` with room for it.
    func send(_ text: String, on channel: String) throws(MPDError) {
        guard Self.isValid(channel) else { throw .argument("invalid channel name") }
        let receivers = clients.withLock { all -> Set<UInt64> in
            var got = Set<UInt64>()
            for (id, var s) in all where s.channels.contains(channel) && s.messages.count < Self.maxMessages {
                s.messages.append((channel, text))
                all[id] = s
                got.insert(id)
            }
            return got
        }
        guard !receivers.isEmpty else { throw .noExist("nobody is subscribed to this channel") }
        send(.message, to: receivers)
    }

    /// The client's unread messages, oldest first; they are read.
    func read(_ client: UInt64) -> [(channel: String, text: String)] {
        clients.withLock { all in
            defer { all[client]?.messages = [] }
            return all[client]?.messages ?? []
        }
    }

    /// A client left: its subscriptions and messages go (no event, as in MPD).
    func remove(_ client: UInt64) {
        _ = clients.withLock { $0.removeValue(forKey: client) }
    }

    private func send(_ subsystems: MPDIdleSubsystems, to receivers: Set<UInt64>?) {
        delivery.withLock { $0 }?.call(subsystems, receivers)
    }
}
