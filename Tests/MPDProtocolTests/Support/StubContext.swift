import MPDProtocol

/// A connection context for tests: full permission, and a record of the idle events the stub
/// commands caused (the server would broadcast them to every session).
struct StubContext: MPDCommandContext {
    var permission: MPDPermission = .all
    var events: MPDIdleSubsystems = []
    /// Requests the stub handlers saw, in order.
    var log: [MPDRequest] = []
}
