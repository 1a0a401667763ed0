public import Library

/// The podcast subscriptions the socket's `podcast…` commands manage: kept in the library database, fetched
/// and downloaded by the service's podcast part. A server given none answers those commands with
/// `No podcast service` (52).
///
/// Thread rules: any thread (the connections' command queues); nothing here waits for a fetch.
public protocol PodcastControl: Sendable {
    /// Subscribes to `url` (its id when it was subscribed already) and fetches it soon.
    func add(_ url: String) throws -> Int64
    /// Every subscription, in the order they were added.
    func list() throws -> [SubscriptionStore.Subscription]
    /// Ends the subscription `what` names (its id or its address).
    func delete(_ what: String) throws
    /// Fetches the subscription `what` names now (nil: every one); returns at once.
    func update(_ what: String?) throws
    /// Sets how many of the newest episodes the subscription `what` names keeps downloaded (nil: the
    /// configuration's `keep`); more than before are downloaded soon.
    func setKeep(_ what: String, _ keep: Int?) throws
}
