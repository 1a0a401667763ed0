/// Splits a connection's incoming bytes into request lines, with MPD's input-buffer limit.
///
/// Bytes are buffered until a `\n` arrives; how they were split into reads never matters. A line
/// may hold at most `limits.lineBufferSize - 1` bytes before its `\n`; when the buffer holds that
/// many bytes plus one without a newline, the framer reports `.overflow` and the connection must
/// close without a reply (MPD: "buffer overflow"). Bytes are never interpreted as text here.
///
/// Not thread-safe: owned by one connection's session.
public struct MPDLineFramer: Sendable {
    /// What the buffered bytes hold next.
    public enum Next: Sendable, Equatable {
        /// One complete line, without its `\n`.
        case line([UInt8])
        /// No complete line yet; feed more bytes.
        case needMoreData
        /// The buffer is full and holds no newline: close the connection.
        case overflow
    }

    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// Bytes from `readIndex` up to here are known to hold no newline.
    private var scannedIndex = 0
    private let capacity: Int

    public init(limits: MPDLimits = .mpdDefaults) {
        capacity = limits.lineBufferSize
    }

    /// Number of bytes received but not yet returned as lines.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Appends received bytes.
    public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes straight from the read buffer (one copy, no per-byte iteration).
    public mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete line, or says why there is none.
    public mutating func next() -> Next {
        let limit = min(buffer.count, readIndex + capacity)
        var index = max(scannedIndex, readIndex)
        while index < limit {
            if buffer[index] == UInt8(ascii: "\n") {
                let line = Array(buffer[readIndex..<index])
                readIndex = index + 1
                scannedIndex = readIndex
                compactIfWorthIt()
                return .line(line)
            }
            index += 1
        }
        scannedIndex = index
        return bufferedByteCount >= capacity ? .overflow : .needMoreData
    }

    private mutating func compactIfWorthIt() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
            scannedIndex = 0
        } else if readIndex >= 4096 && readIndex * 2 >= buffer.count {
            buffer.removeFirst(readIndex)
            scannedIndex -= readIndex
            readIndex = 0
        }
    }
}

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
