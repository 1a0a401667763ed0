public import CMpg123

/// Owns one `mpg123_handle`: `init` calls `mpg123_new`, `deinit` calls `mpg123_close` and `mpg123_delete`.
///
/// Thread rules: a handle is used by one thread at a time (libmpg123 keeps per-handle state and
/// returns pointers into it); it is not `Sendable`. Create one per decoding or scanning thread.
public final class Mpg123Handle {
    let mh: OpaquePointer
    private var isOpen = false
    private var usesWindow = false
    /// The reader state for `open(fd:startingAt:)`; lives as long as the handle.
    private let window = UnsafeMutablePointer<cw_mpg123_window>.allocate(capacity: 1)
    /// The reader state for `open(memory:)`.
    private let memory = UnsafeMutablePointer<cw_mpg123_memory>.allocate(capacity: 1)
    /// The reader state for `open(_: Mpg123Source)`.
    let sourceState = UnsafeMutablePointer<cw_mpg123_source>.allocate(capacity: 1)
    /// The buffer of buffered `Mpg123Source` reads, allocated at the first such open.
    private var sourceBufferStorage: UnsafeMutableRawPointer?
    /// The flags the handle was made with.
    let flags: Flags

    /// Flags for `MPG123_ADD_FLAGS`.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let quiet = Flags(rawValue: Int(MPG123_QUIET.rawValue))
        public static let gapless = Flags(rawValue: Int(MPG123_GAPLESS.rawValue))
        /// Keep APIC frames (`mpg123_id3v2.picture`); costs memory for big artwork, so only when needed.
        public static let picture = Flags(rawValue: Int(MPG123_PICTURE.rawValue))
    }

    /// Creates a handle with libmpg123's default decoder (`mpg123_new`) and sets `flags`.
    public init(flags: Flags = [.quiet, .gapless]) throws(Mpg123Error) {
        var err: Int32 = 0
        guard let handle = mpg123_new(nil, &err) else {
            throw Mpg123Error(operation: "mpg123_new", code: err, message: Mpg123Error.text(for: err, handle: nil))
        }
        mh = handle
        self.flags = flags
        try setParameter(MPG123_ADD_FLAGS, Int(flags.rawValue))
        if !flags.contains(.gapless) {
            try setParameter(MPG123_REMOVE_FLAGS, Int(MPG123_GAPLESS.rawValue))
        }
    }

    deinit {
        if isOpen { mpg123_close(mh) }
        mpg123_delete(mh)
        window.deallocate()
        memory.deallocate()
        sourceState.deallocate()
        sourceBufferStorage?.deallocate()
    }

    /// Sets an integer parameter (`mpg123_param2`).
    public func setParameter(_ key: mpg123_parms, _ value: Int) throws(Mpg123Error) {
        try Mpg123Error.check(mpg123_param2(mh, Int32(key.rawValue), value, 0), "mpg123_param2(\(key.rawValue))", handle: mh)
    }

    /// Opens an already open file descriptor (`mpg123_open_fd`); the caller keeps owning `fd`.
    public func open(fd: Int32) throws(Mpg123Error) {
        closeStream()
        if usesWindow {
            // Back to libmpg123's own fd reader after a windowed open.
            try Mpg123Error.check(cw_mpg123_restore_reader(mh), "mpg123_replace_reader", handle: mh)
            usesWindow = false
        }
        try Mpg123Error.check(cw_mpg123_open_fd(mh, fd), "mpg123_open_fd", handle: mh)
        isOpen = true
    }

    /// Opens `fd` as if the file began at byte `offset` (`mpg123_replace_reader_handle` +
    /// `mpg123_open_handle`): for a file whose leading tag lies about its size. The caller keeps `fd`.
    public func open(fd: Int32, startingAt offset: Int64) throws(Mpg123Error) {
        closeStream()
        window.pointee = cw_mpg123_window(fd: fd, base: offset)
        try Mpg123Error.check(cw_mpg123_open_window(mh, window), "mpg123_open_handle", handle: mh)
        usesWindow = true
        isOpen = true
    }

    /// Opens a stream held in memory (`mpg123_replace_reader_handle` + `mpg123_open_handle`), e.g. a
    /// mapped file: parsing every frame then costs no system calls. `bytes` must stay valid until
    /// `closeStream()` or the next open.
    public func open(memory bytes: UnsafeRawBufferPointer) throws(Mpg123Error) {
        closeStream()
        memory.pointee = cw_mpg123_memory(
            data: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: Int64(bytes.count), pos: 0)
        try Mpg123Error.check(cw_mpg123_open_memory(mh, memory), "mpg123_open_handle", handle: mh)
        isOpen = true
        usesWindow = true
    }

    /// The buffer for `Mpg123Source.bufferedFrom` reads (`sourceBufferSize` bytes), kept for the handle's life.
    func sourceBuffer() -> UnsafeMutablePointer<UInt8> {
        if sourceBufferStorage == nil {
            sourceBufferStorage = UnsafeMutableRawPointer.allocate(byteCount: Self.sourceBufferSize, alignment: 4096)
        }
        return sourceBufferStorage!.assumingMemoryBound(to: UInt8.self)
    }

    /// Records a successful open through a replaced reader (`open(fd:)` restores libmpg123's own).
    func markOpenedWithReplacedReader() {
        isOpen = true
        usesWindow = true
    }

    /// Closes the current stream (`mpg123_close`); the handle can open another one.
    public func closeStream() {
        if isOpen {
            mpg123_close(mh)
            isOpen = false
        }
    }

    /// Restricts the output to signed 16-bit at every rate libmpg123 supports, mono or stereo as the
    /// file is (`mpg123_format_none` + `mpg123_format` per rate), so nothing is resampled here.
    public func allowNativeRatesS16() throws(Mpg123Error) {
        try Mpg123Error.check(mpg123_format_none(mh), "mpg123_format_none", handle: mh)
        var list: UnsafePointer<Int>?
        var count = 0
        mpg123_rates(&list, &count)
        guard let list else { return }
        for i in 0..<count {
            let channels = Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue)
            try Mpg123Error.check(
                mpg123_format(mh, list[i], channels, Int32(MPG123_ENC_SIGNED_16.rawValue)), "mpg123_format",
                handle: mh)
        }
    }

    /// The output format of the open stream (`mpg123_getformat`); reads the first frame if needed.
    public func format() throws(Mpg123Error) -> AudioFormat {
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        try Mpg123Error.check(mpg123_getformat(mh, &rate, &channels, &encoding), "mpg123_getformat", handle: mh)
        return AudioFormat(sampleRate: rate, channels: Int(channels), encoding: encoding)
    }

    /// Facts about the current MPEG frame (`mpg123_info2`).
    public func frameInfo() throws(Mpg123Error) -> FrameInfo {
        var info = mpg123_frameinfo2()
        try Mpg123Error.check(mpg123_info2(mh, &info), "mpg123_info2", handle: mh)
        return FrameInfo(info)
    }

    /// Parses every frame of the stream to make length and seeking exact (`mpg123_scan`).
    public func scan() throws(Mpg123Error) {
        try Mpg123Error.check(mpg123_scan(mh), "mpg123_scan", handle: mh)
    }

    /// Length in output samples per channel, gapless-trimmed where a LAME tag says how (`mpg123_length`);
    /// an estimate for VBR streams without a Xing/Info header until `scan()` ran. Nil when unknown.
    public var length: Int64? {
        let n = cw_mpg123_length(mh)
        return n < 0 ? nil : n
    }

    /// Number of MPEG frames (`mpg123_framelength`), nil when unknown.
    public var frameCount: Int64? {
        let n = cw_mpg123_framelength(mh)
        return n < 0 ? nil : n
    }

    /// Byte offset of the current frame in the input stream (`mpg123_framepos`).
    public var framePosition: Int64 { cw_mpg123_framepos(mh) }

    /// A decoder state value (`mpg123_getstate2`); -1 where libmpg123 reports it as unknown.
    public func state(_ key: mpg123_state) -> Int {
        var value = 0
        var fvalue = 0.0
        guard mpg123_getstate2(mh, Int32(key.rawValue), &value, &fvalue) == MPG123_OK.rawValue else { return -1 }
        return value
    }

    /// Encoder delay from the LAME tag (`MPG123_ENC_DELAY`), nil when the file has no LAME tag.
    public var encoderDelay: Int? {
        let v = state(MPG123_ENC_DELAY)
        return v < 0 ? nil : v
    }

    /// Encoder padding from the LAME tag (`MPG123_ENC_PADDING`), nil when the file has no LAME tag.
    public var encoderPadding: Int? {
        let v = state(MPG123_ENC_PADDING)
        return v < 0 ? nil : v
    }

    /// Decodes into `buffer` (`mpg123_read`). Returns the bytes written and libmpg123's status code
    /// (`MPG123_OK`, `MPG123_NEW_FORMAT`, `MPG123_DONE`, or an error code).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> (bytes: Int, status: Int32) {
        var done = 0
        let status = mpg123_read(mh, buffer.baseAddress, buffer.count, &done)
        return (done, status)
    }

    /// Seeks to an output sample (`mpg123_seek`, SEEK_SET); returns the sample it landed on.
    @discardableResult
    public func seek(toSample sample: Int64) throws(Mpg123Error) -> Int64 {
        let r = cw_mpg123_seek(mh, sample, 0)
        if r < 0 { try Mpg123Error.check(Int32(truncatingIfNeeded: r), "mpg123_seek", handle: mh) }
        return r
    }

    /// The current output sample (`mpg123_tell`).
    public var position: Int64 { cw_mpg123_tell(mh) }

    /// The text of the handle's last error (`mpg123_strerror`).
    public var lastError: String { mpg123_strerror(mh).map { String(cString: $0) } ?? "unknown error" }
}

/// The PCM format libmpg123 decodes to.
public struct AudioFormat: Hashable, Sendable {
    public var sampleRate: Int
    public var channels: Int
    /// An `mpg123_enc_enum` value.
    public var encoding: Int32
}

/// One MPEG frame's header facts (`mpg123_frameinfo2`).
public struct FrameInfo: Hashable, Sendable {
    /// 1 for MPEG 1, 2 for MPEG 2, 3 for MPEG 2.5.
    public var mpegVersion: Int
    public var layer: Int
    public var sampleRate: Int
    public var channels: Int
    /// Bitrate of this frame in kbit/s.
    public var bitrate: Int
    /// True for a file libmpg123 knows to be VBR or ABR (from a Xing/VBRI header).
    public var isVBR: Bool

    init(_ i: mpg123_frameinfo2) {
        switch i.version {
        case Int32(MPG123_1_0.rawValue): mpegVersion = 1
        case Int32(MPG123_2_0.rawValue): mpegVersion = 2
        default: mpegVersion = 3
        }
        layer = Int(i.layer)
        sampleRate = i.rate
        channels = i.mode == Int32(MPG123_M_MONO.rawValue) ? 1 : 2
        bitrate = Int(i.bitrate)
        isVBR = i.vbr != Int32(MPG123_CBR.rawValue)
    }
}
