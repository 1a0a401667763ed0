import CMpg123

extension Mpg123Handle {
    /// How many bytes libmpg123 may skip looking for the next frame (`MPG123_RESYNC_LIMIT`); -1 = no limit.
    public func setResyncLimit(_ bytes: Int) throws(Mpg123Error) {
        try setParameter(MPG123_RESYNC_LIMIT, bytes)
    }

    /// True when a `read(into:)` status means "more to come" (`MPG123_OK` or `MPG123_NEW_FORMAT`), false
    /// at `MPG123_DONE` or an error.
    public static func isContinuing(_ status: Int32) -> Bool {
        status == MPG123_OK.rawValue || status == MPG123_NEW_FORMAT.rawValue
    }

    /// True for `MPG123_NEW_FORMAT`: call `format()` and reconfigure the output.
    public static func isNewFormat(_ status: Int32) -> Bool { status == MPG123_NEW_FORMAT.rawValue }
}
