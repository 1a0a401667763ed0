/// One audio output as MPD's `outputs` lists it.
public struct OutputState: Sendable, Hashable {
    public var name: String
    /// `pulse`, `snapcast`, `null` (MPD's `plugin` field).
    public var plugin: String
    public var enabled: Bool

    public init(name: String, plugin: String, enabled: Bool) {
        self.name = name
        self.plugin = plugin
        self.enabled = enabled
    }
}

/// The configured outputs, which MPD's `outputs`, `enableoutput`, `disableoutput` and `toggleoutput`
/// list and switch (ids are positions in the list).
///
/// Thread rules: any thread (the connections' command queues).
public protocol OutputSwitch: Sendable {
    func outputs() -> [OutputState]
    /// Turns output `id` on (`true`), off (`false`) or over (`nil`); false when there is no such output.
    func set(_ id: Int, enabled: Bool?) -> Bool
}

/// The single output of a server given no list: always on, not switchable (`disableoutput 0` is
/// accepted and changes nothing, as for an output that cannot be turned off).
public struct FixedOutput: OutputSwitch {
    public init() {}
    public func outputs() -> [OutputState] { [OutputState(name: "ClickWheel", plugin: "pulse", enabled: true)] }
    public func set(_ id: Int, enabled: Bool?) -> Bool { id == 0 }
}
