/// What one scan did, as printed by `clickwheel index` and returned by `--json`.
public struct ScanSummary: Codable, Equatable, Sendable {
    public var added = 0
    public var updated = 0
    public var removed = 0
    /// Files found under a new path and matched to their old row (play state kept).
    public var moved = 0
    /// Files in the music folder that are not indexed (bad files), including ones skipped before.
    public var skipped = 0
    public var unchanged = 0
    /// Indexed tracks in the library after the scan.
    public var tracks = 0
    public var playlists = 0
    /// Whether the songs or the music folder's playlists changed: what MPD's `database` idle event
    /// reports (a rescan that finds nothing new sends only `update`).
    public var changed = false
    public var seconds = 0.0

    public init() {}
}

/// Where a running scan is, for progress bars and log lines.
public struct ScanProgress: Sendable {
    public enum Phase: String, Sendable { case walking, reading, finishing }
    public var phase: Phase
    /// Files read so far and files to read in this scan (new or changed).
    public var done: Int
    public var total: Int
}
