import CMpg123

extension Mpg123Handle {
    /// How many bytes libmpg123 may skip looking for the next frame (`MPG123_RESYNC_LIMIT`); -1 = no limit.
    public func setResyncLimit(_ bytes: Int) throws(Mpg123Error) {
        try setParameter(MPG123_RESYNC_LIMIT, bytes)
    }

    /// Scales the decoded output by `factor` (`mpg123_volume`; 1 = unchanged), applied in the synthesis
    /// and clipped there; combined with libmpg123's own RVA, which stays off unless `MPG123_RVA` is set.
    public func setVolume(_ factor: Double) throws(Mpg123Error) {
        try Mpg123Error.check(mpg123_volume(mh, factor), "mpg123_volume", handle: mh)
    }

    /// True when a `read(into:)` status means "more to come" (`MPG123_OK` or `MPG123_NEW_FORMAT`), false
    /// at `MPG123_DONE` or an error.
    public static func isContinuing(_ status: Int32) -> Bool {
        status == MPG123_OK.rawValue || status == MPG123_NEW_FORMAT.rawValue
    }

    /// True for `MPG123_NEW_FORMAT`: call `format()` and reconfigure the output.
    public static func isNewFormat(_ status: Int32) -> Bool { status == MPG123_NEW_FORMAT.rawValue }
}
