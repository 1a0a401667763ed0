import CMpg123

/// The status codes `Mpg123Handle.read(into:)` returns besides errors, so a decoding loop in another module
/// need not import `CMpg123` (C modules are imported only by their wrapper).
///
/// Thread rules: constants; any thread.
public enum Mpg123Status {
    /// `MPG123_OK`: PCM was decoded.
    public static let ok = Int32(MPG123_OK.rawValue)
    /// `MPG123_DONE`: the end of the stream (any PCM returned with it is the last).
    public static let done = Int32(MPG123_DONE.rawValue)
    /// `MPG123_NEW_FORMAT`: the output format changed; ask `format()` before going on.
    public static let newFormat = Int32(MPG123_NEW_FORMAT.rawValue)
}

extension Mpg123Handle {
    /// Lets libmpg123 search any distance for the next good frame after damage (`mpg123_param2`,
    /// `MPG123_RESYNC_LIMIT` = −1) instead of giving up after 1024 bytes: a player skips a corrupt stretch
    /// and plays on, as `mpg123 -t` does not.
    public func allowUnlimitedResync() throws(Mpg123Error) {
        try setParameter(MPG123_RESYNC_LIMIT, -1)
    }

    /// Output samples per second of the open stream, or nil before the format is known
    /// (`mpg123_getformat`); a cheap check that a file decodes at all.
    public var sampleRate: Int? { (try? format())?.sampleRate }
}
