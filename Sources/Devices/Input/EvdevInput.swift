public import ClickWheelCore
import Evdev
import Glibc
public import Logging
import Synchronization

/// The `evdev` input: every fitting device under `/dev/input`, each read on its own thread through
/// its profile's decoder, with hotplug.
///
/// `start` opens the configured devices (or, with an empty `only`, every `event*` node whose
/// capabilities fit a wheel, a touch ring or buttons), grabs them unless the profile says not to,
/// and watches the directory with inotify: a node that appears or changes permissions is opened, one
/// that fails with ENODEV is closed and opened again when it comes back — one log line each way.
/// Thread rules: `start`/`stop` from the service's start-up and shutdown threads; the sink and `observer` run on reader threads
/// (one per device, so calls for different devices may overlap).
/// `@unchecked Sendable`: the readers and profiles are in the `state` Mutex; `watcher` changes only in `start` and `stop`, on the owner's thread.
public final class EvdevInput: InputSource, @unchecked Sendable {
    /// Which devices to read and how.
    public struct Configuration: Sendable {
        /// The directory to scan and watch.
        public var directory: String
        /// Devices to use (paths or names); empty means every device that fits.
        public var only: [EvdevProfile.Match]
        /// Per-device settings; the first that fits a device wins.
        public var profiles: [EvdevProfile]
        /// Watch the directory for devices that appear or come back.
        public var hotplug: Bool

        public init(
            directory: String = "/dev/input", only: [EvdevProfile.Match] = [], profiles: [EvdevProfile] = [],
            hotplug: Bool = true
        ) {
            self.directory = directory
            self.only = only
            self.profiles = profiles
            self.hotplug = hotplug
        }
    }

    private struct State {
        var readers: [String: EvdevReader] = [:]
        var finished: [EvdevReader] = []
        var sink: (@Sendable (InputEvent) -> Void)?
        /// The profiles in use: the configuration's, until `apply(profiles:)`.
        var profiles: [EvdevProfile]
    }

    public let configuration: Configuration
    private let logger: Logger
    private let observer: (@Sendable (EvdevObservation) -> Void)?
    private let state: Mutex<State>
    private let rawTap = EvdevRawTap()
    private var watcher: InputDirectoryWatcher?

    /// `observer`, when given, sees every raw event with what it decoded to (the input debugger).
    public init(
        configuration: Configuration = Configuration(), logger: Logger = Logger(label: "clickwheel.input"),
        observer: (@Sendable (EvdevObservation) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.logger = logger
        self.observer = observer
        state = Mutex(State(profiles: configuration.profiles))
    }

    /// Replaces the profiles (`configuration.profiles` keeps the ones it started with): every open
    /// device decodes with its new profile from its next event on, devices opened later pick from
    /// these. For a calibration applied while running; a device's grab does not change.
    public func apply(profiles: [EvdevProfile]) {
        let readers = state.withLock { s in
            s.profiles = profiles
            return Array(s.readers.values)
        }
        for r in readers {
            let number = r.deviceNumber
            r.apply(EvdevProfile.pick(from: profiles, path: r.path, deviceNumber: number, name: r.name))
        }
    }

    /// Also sends every raw event of every device to `sink` (with the device's node), before what it
    /// decodes to; nil stops that. Settings → Wheel measures the wheel with them.
    public func forwardRawEvents(to sink: (@Sendable (String, RawInputEvent) -> Void)?) {
        rawTap.set(sink)
    }

    deinit { stop() }

    /// The device nodes being read now, sorted.
    public var openDevices: [String] { state.withLock { $0.readers.keys.sorted() } }

    public func start(_ sink: @escaping @Sendable (InputEvent) -> Void) throws {
        state.withLock { $0.sink = sink }
        if configuration.hotplug {
            do {
                let w = try InputDirectoryWatcher(directory: configuration.directory)
                try w.start { [weak self] name in self?.changed(name: name) }
                watcher = w
            } catch {
                logger.warning("input: no hotplug (\(error)); devices that appear later are not seen")
            }
        }
        for case .path(let p) in configuration.only { attach(path: p) }
        for name in Self.eventNodes(in: configuration.directory) { attach(path: configuration.directory + "/" + name) }
        if openDevices.isEmpty {
            logger.notice("input: no input device yet in \(configuration.directory); waiting for one")
        }
    }

    public func stop() {
        watcher?.stop()
        watcher = nil
        let readers = state.withLock { s in
            defer {
                s.readers = [:]
                s.finished = []
                s.sink = nil
            }
            return Array(s.readers.values) + s.finished
        }
        for r in readers { r.stop() }
    }

    /// The `eventN` entries of `directory`, in numeric order (`opendir`/`readdir`).
    static func eventNodes(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix("event"), Int(name.dropFirst(5)) != nil { names.append(name) }
        }
        return names.sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
    }

    /// Watcher thread: an entry appeared or changed.
    private func changed(name: String) {
        let path = configuration.directory + "/" + name
        let configured = configuration.only.contains { $0 == .path(path) }
        guard configured || (name.hasPrefix("event") && Int(name.dropFirst(5)) != nil) else { return }
        attach(path: path)
    }

    /// Opens `path` if it is not open yet and fits; logs what it became. Any thread.
    private func attach(path: String) {
        guard let number = Self.deviceNumber(path) else { return }
        let (already, ended) = state.withLock { s in
            defer { s.finished = [] }
            return (s.readers.values.contains { $0.deviceNumber == number } || s.sink == nil, s.finished)
        }
        for r in ended { r.stop() }
        guard !already else { return }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: path)
        } catch {
            let level: Logger.Level = error.isPermissionDenied ? .info : .debug
            logger.log(level: level, "input: cannot open \(path) yet (\(error))")
            return
        }
        let name = device.name
        let only = configuration.only
        guard only.isEmpty || only.contains(where: { $0.fits(path: path, deviceNumber: number, name: name) }) else {
            return
        }
        let profiles = state.withLock { $0.profiles }
        let profile = EvdevProfile.pick(from: profiles, path: path, deviceNumber: number, name: name)
        let capabilities = EvdevCapabilities(device: device, profile: profile)
        guard capabilities.isUseful else {
            logger.debug("input: ignoring \(path) \"\(name)\" (no wheel, touch ring or buttons)")
            return
        }
        var grabbed = ""
        if profile.grab {
            do {
                try device.grab()
                grabbed = ", grabbed"
            } catch {
                logger.warning("input: cannot grab \(path) (\(error)); the console sees its keys too")
            }
        }
        start(device: device, number: number, capabilities: capabilities, profile: profile, note: grabbed)
    }

    private func start(
        device: EvdevDevice, number: UInt64, capabilities: EvdevCapabilities, profile: EvdevProfile, note: String
    ) {
        let path = device.path
        let name = device.name
        guard let sink = state.withLock({ $0.sink }) else { return }
        do {
            let reader = try EvdevReader(
                device: device, deviceNumber: number, capabilities: capabilities, profile: profile, sink: sink,
                observer: observer, rawTap: rawTap,
                onGone: { [weak self] reader, error in self?.gone(reader, error) })
            let added = state.withLock { s -> Bool in
                guard s.readers[path] == nil, s.sink != nil else { return false }
                s.readers[path] = reader
                return true
            }
            guard added else { return }
            try reader.start()
            logger.notice("input: opened \(path) \"\(name)\": \(capabilities)\(note)")
        } catch {
            _ = state.withLock { $0.readers.removeValue(forKey: path) }
            logger.error("input: cannot read \(path): \(error)")
        }
    }

    /// Reader thread: its device failed (unplugged); the reader is joined later, by another thread.
    private func gone(_ reader: EvdevReader, _ error: EvdevError) {
        state.withLock { s in
            if s.readers[reader.path] === reader { s.readers[reader.path] = nil }
            s.finished.append(reader)
        }
        let how = error.isDeviceGone ? "gone" : "failed: \(error)"
        logger.warning("input: \(reader.path) \"\(reader.name)\" \(how); reopening when it comes back")
    }

    /// The device number of the node at `path` (`stat`, following links), so a udev link and its node
    /// are one device; nil when it is not there. (Not `realpath`: umockdev 0.17's wrapper of it crashes.)
    static func deviceNumber(_ path: String) -> UInt64? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        // Anything but a character device (a test's plain file) is told apart by its inode.
        return st.st_mode & S_IFMT == S_IFCHR ? UInt64(st.st_rdev) : UInt64(st.st_ino) | 1 << 63
    }
}
