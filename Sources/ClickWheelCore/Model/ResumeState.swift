/// What a power cut must not lose: the play queue, the current entry, the position and the play status.
///
/// The engine emits it as `Effect.checkpoint` (every 5 s while playing and after every change) and
/// takes it back with `Event.restore` at start. The shell stamps `savedAtMS` (the engine has no wall
/// clock): the engine emits 0 and reads the stamp back on restore.
public struct ResumeState: Hashable, Sendable {
    /// Track ids in play order (already shuffled when shuffle is on).
    public var queue: [TrackID]
    /// The list order while shuffle is on (turning shuffle off restores it), else nil.
    public var unshuffledQueue: [TrackID]?
    /// The index in `queue` of the current entry, nil when nothing is current.
    public var current: Int?
    /// Position in the current entry, milliseconds.
    public var positionMS: Int
    public var status: Player.Status
    /// When the checkpoint was written, unix milliseconds (stamped by the store; 0 from the engine).
    public var savedAtMS: Int64

    public init(
        queue: [TrackID], unshuffledQueue: [TrackID]? = nil, current: Int?, positionMS: Int, status: Player.Status,
        savedAtMS: Int64 = 0
    ) {
        self.queue = queue
        self.unshuffledQueue = unshuffledQueue
        self.current = current
        self.positionMS = positionMS
        self.status = status
        self.savedAtMS = savedAtMS
    }

    /// This state with the entries whose track `exists` says is gone dropped: the current entry moves
    /// to the next surviving one (from its beginning), or to none when nothing after it survives.
    public func keeping(_ exists: (TrackID) -> Bool) -> ResumeState {
        var kept: [TrackID] = []
        var newCurrent: Int?
        var position = positionMS
        for (i, id) in queue.enumerated() where exists(id) {
            if let current, newCurrent == nil, i >= current {
                newCurrent = kept.count
                if i != current { position = 0 }
            }
            kept.append(id)
        }
        if newCurrent == nil { position = 0 }
        return ResumeState(
            queue: kept, unshuffledQueue: unshuffledQueue?.filter(exists), current: newCurrent, positionMS: position,
            status: newCurrent == nil ? .stopped : status, savedAtMS: savedAtMS)
    }
}

/// A podcast's or audiobook's remembered place (`play_state.resume_ms`), as the engine reads it back.
public struct Bookmark: Hashable, Sendable {
    /// Where listening stopped, milliseconds.
    public var positionMS: Int
    /// When it was saved, unix milliseconds (nil when unknown: no rewind).
    public var savedAtMS: Int64?

    public init(positionMS: Int, savedAtMS: Int64?) {
        self.positionMS = positionMS
        self.savedAtMS = savedAtMS
    }
}
