/// The per-connection input limits the codec enforces, with MPD 0.23's defaults.
public struct MPDLimits: Sendable, Hashable {
    /// Size of the input buffer, newline included: a line may hold at most `lineBufferSize - 1`
    /// bytes before its `\n`. A fuller buffer without a newline closes the connection.
    public var lineBufferSize: Int
    /// Maximum sum of (line length + 1) over the lines buffered in one command list
    /// (`max_command_list_size`); one byte more closes the connection.
    public var maxCommandListSize: Int

    public init(lineBufferSize: Int = 8192, maxCommandListSize: Int = 2_097_152) {
        precondition(lineBufferSize > 1 && maxCommandListSize > 0, "limits must be positive")
        self.lineBufferSize = lineBufferSize
        self.maxCommandListSize = maxCommandListSize
    }

    /// MPD 0.23.12's defaults: 8192-byte input buffer, 2 MiB command lists.
    public static let mpdDefaults = MPDLimits()

    /// Most arguments one request may carry (MPD's `COMMAND_ARGV_MAX` is 64 slots, and the check
    /// fires when all are used, so 63 arguments plus the command name is the longest request).
    public static let maxArguments = 63
}
