// swift-tools-version: 6.1
// ClickWheel: an iPod classic for a Raspberry Pi, as one Swift service. See README.md.
// Copyright the ClickWheel authors. GPL-3.0-or-later (LICENSE): FFmpeg as Debian builds it is GPL.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ClickWheel",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "clickwheel", targets: ["clickwheel"])
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Podcast feeds and episodes over HTTP(S) on the service's one event loop group (issue 34).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Tests only: property-based tests over Swift Testing (issue 21).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // C libraries at the edge: a modulemap and a shim header each, nothing else.
        .systemLibrary(
            name: "CMpg123", pkgConfig: "libmpg123",
            providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(
            name: "CEvdev", pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]),
        // No pkgConfig: libpulse's .pc adds -D_REENTRANT -pthread, which SwiftPM warns about on every build.
        .systemLibrary(
            name: "CPulse",
            providers: [.apt(["libpulse-dev"])]),
        // Linux I2C (linux/i2c-dev.h, kernel headers only): the I2C_SLAVE ioctl shim.
        .systemLibrary(name: "CI2C"),
        // libsonic, the speech time-scaler (libsonic-dev ships no pkg-config file).
        .systemLibrary(
            name: "CSonic",
            providers: [.apt(["libsonic-dev"])]),
        // The kernel clock's NTP sync status (sys/timex.h, which Glibc's module does not export): adjtimex.
        .systemLibrary(name: "CTimex"),
        // Decoders beside libmpg123: libFLAC, libvorbisfile, libopusfile, and FFmpeg for MP4 (AAC, ALAC).
        .systemLibrary(
            name: "CFLAC", pkgConfig: "flac",
            providers: [.apt(["libflac-dev"])]),
        .systemLibrary(
            name: "CVorbisFile", pkgConfig: "vorbisfile",
            providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(
            name: "COpusFile", pkgConfig: "opusfile",
            providers: [.apt(["libopusfile-dev"])]),
        // FFmpeg's headers (libavformat-dev, libavcodec-dev, libavutil-dev); the libraries are not linked but
        // opened with dlopen on the first call (Sources/CFFmpeg/loader.c).
        .target(name: "CFFmpeg"),

        // Named threads for blocking work, outside Swift's cooperative pool (one helper for all of it).
        .target(name: "NamedThreads", swiftSettings: strict),

        // Thin wrappers: one class owns each C handle, typed errors per library.
        .target(name: "Mpg123", dependencies: ["CMpg123"], swiftSettings: strict),
        .target(name: "Evdev", dependencies: ["CEvdev"], swiftSettings: strict),
        .target(name: "I2C", dependencies: ["CI2C"], swiftSettings: strict),
        .target(name: "Pulse", dependencies: ["CPulse"], swiftSettings: strict),
        .target(name: "Sonic", dependencies: ["CSonic"], swiftSettings: strict),
        .target(name: "FLAC", dependencies: ["CFLAC"], swiftSettings: strict),
        .target(name: "VorbisFile", dependencies: ["CVorbisFile"], swiftSettings: strict),
        .target(name: "OpusFile", dependencies: ["COpusFile"], swiftSettings: strict),
        .target(name: "FFmpeg", dependencies: ["CFFmpeg"], swiftSettings: strict),

        // Audio file formats read by the project's own pure parsers (MP4 atoms, FLAC blocks, Vorbis
        // comments, Ogg pages, RIFF and AIFF chunks): no C, no I/O of its own (it reads through a
        // `ByteSource`), fuzzable. The index and the decoders both read through it.
        .target(name: "AudioFormats", swiftSettings: strict),

        // The pure core: no C imports, no I/O, no sleeping.
        .target(name: "ClickWheelCore", swiftSettings: strict),

        // Devices: terminal display, keyboard and evdev input, LCDproc client, HD44780 over I2C.
        .target(
            name: "Devices",
            dependencies: [
                "ClickWheelCore", "CTimex", "Evdev", "I2C", "NamedThreads", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),

        // Test doubles and fixtures for the core (in-memory library, scripted engine driver).
        .target(
            name: "ClickWheelTestKit",
            dependencies: ["ClickWheelCore", "NamedThreads", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),

        // The music library: SQLite store (GRDB), scanner, tag readers (ID3 through libmpg123, the other
        // formats through AudioFormats), queries, the music folder's watcher.
        .target(
            name: "Library",
            dependencies: [
                "AudioFormats", "ClickWheelCore", "Mpg123", "NamedThreads",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The listing path reads column bytes in place from GRDB's statements (sqlite3_column_*).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),

        // The audio path: a decode/output thread of its own, a decoder per format (libmpg123, libFLAC,
        // libvorbisfile, libopusfile, FFmpeg, the project's own PCM reader) -> PulseAudio (or a null output).
        .target(
            name: "Playback",
            dependencies: [
                "AudioFormats", "FFmpeg", "FLAC", "Mpg123", "NamedThreads", "OpusFile", "Pulse", "Sonic", "VorbisFile",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),

        // Podcast subscriptions (issue 34): feed and OPML parsing (pure, fuzzable: Sources/Podcasts/Feed),
        // episode file names, conditional feed fetches and resumable episode downloads over AsyncHTTPClient on
        // a caller's event loop group. No engine, database or UI.
        .target(
            name: "Podcasts",
            dependencies: [
                "NamedThreads",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict),

        // The MPD protocol as a pure codec.
        .target(name: "MPDProtocol", swiftSettings: strict),

        // The control socket: MPD sessions over SwiftNIO's Unix-domain sockets, and the command handlers.
        .target(
            name: "ControlServer",
            dependencies: [
                "AudioFormats", "MPDProtocol", "Library", "ClickWheelCore", "NamedThreads",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),

        // Snapcast: the rooms' output (PCM to a snapserver source, paced by its own thread) and the JSON-RPC
        // control client behind Main menu → Speakers (SwiftNIO, on the service's one event loop).
        .target(
            name: "Snapcast",
            dependencies: [
                "ClickWheelCore", "NamedThreads", "Playback",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),

        // The web remote: the page (assets built in), the live LCD frames and the wheel over one WebSocket
        // (SwiftNIO's HTTP/1 and WebSocket, already in the package: no new dependency).
        .target(
            name: "WebRemote",
            dependencies: [
                "ClickWheelCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Assets"],
            swiftSettings: strict),

        // The service's configuration: YAML file, environment, flags; errors with file, line and column.
        .target(
            name: "ClickWheelConfig",
            dependencies: ["ClickWheelCore", .product(name: "Yams", package: "Yams")],
            swiftSettings: strict),

        // The service's composition: each long-lived part a swift-service-lifecycle Service, run as one
        // ServiceGroup; the engine loop. The executable and the tests run this same code.
        .target(
            name: "ClickWheelService",
            dependencies: [
                "ClickWheelConfig", "ClickWheelCore", "ControlServer", "Devices", "Library", "MPDProtocol", "NamedThreads",
                "Playback", "Podcasts", "Snapcast", "WebRemote",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),

        // The one executable: options into a configuration, then the service (or index, ctl, debug, calibrate).
        .executableTarget(
            name: "clickwheel",
            dependencies: [
                "ClickWheelConfig", "ClickWheelCore", "ClickWheelService", "Devices", "Library", "NamedThreads", "Podcasts",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),

        // Benchmarks (contrib/bench): built only when asked for.
        .executableTarget(
            name: "clickwheel-bench",
            dependencies: ["Library", "ClickWheelCore", "ClickWheelTestKit", "NamedThreads", .product(name: "GRDB", package: "GRDB.swift")],
            path: "contrib/bench/Sources/clickwheel-bench",
            swiftSettings: strict),
        // The core's step-to-frame benchmark over the in-memory twin (see contrib/bench/).
        .executableTarget(
            name: "clickwheel-core-bench", dependencies: ["ClickWheelCore", "ClickWheelTestKit"],
            path: "contrib/bench/CoreBench", swiftSettings: strict),

        // The wheel's config Save in a loop, for contrib/soak/powercut.py's config rounds.
        .executableTarget(
            name: "clickwheel-config-writer", dependencies: ["ClickWheelConfig", "ClickWheelCore"],
            path: "contrib/soak/ConfigWriter", swiftSettings: strict),

        // A tiny player for contrib/bench/playback_bench.sh and trying the audio path by hand.
        .executableTarget(
            name: "clickwheel-play", dependencies: ["Playback"], path: "contrib/bench/Sources/clickwheel-play",
            swiftSettings: strict),

        .testTarget(
            name: "ClickWheelCoreTests",
            dependencies: [
                "ClickWheelCore", "ClickWheelTestKit", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Golden", "Traces"], swiftSettings: strict),
        .testTarget(
            name: "LibraryTests",
            dependencies: [
                "Library", "ClickWheelCore", "ClickWheelTestKit", "NamedThreads", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Fixtures", "Schema", "Golden"],
            swiftSettings: strict),
        .testTarget(name: "AudioFormatsTests", dependencies: ["AudioFormats", "ClickWheelTestKit"], swiftSettings: strict),
        .testTarget(
            name: "MPDProtocolTests",
            dependencies: ["MPDProtocol", .product(name: "PropertyBased", package: "swift-property-based")],
            exclude: ["Transcripts"],
            swiftSettings: strict),
        .testTarget(
            name: "ControlServerTests",
            dependencies: [
                "ControlServer", "MPDProtocol", "Library", "ClickWheelCore", "ClickWheelService", "ClickWheelTestKit", "Devices",
                "Playback",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // The composed service's own parts (the engine loop's wiring, the Snapcast control client's codec);
        // the service as a whole is driven by ControlServerTests and EndToEndTests.
        .testTarget(
            name: "ClickWheelServiceTests",
            dependencies: [
                "ClickWheelService", "ClickWheelCore", "ClickWheelTestKit", "Devices", "MPDProtocol", "Playback",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(name: "ClickWheelConfigTests", dependencies: ["ClickWheelConfig", "ClickWheelCore", "ClickWheelTestKit"], swiftSettings: strict),
        // End to end: the real binary in tmux (needs only the built executable).
        .testTarget(name: "EndToEndTests", dependencies: ["ClickWheelTestKit", "NamedThreads"], exclude: ["Transcripts", "Podcasts"], swiftSettings: strict),
        .testTarget(
            name: "DevicesTests",
            dependencies: ["Devices", "Evdev", "ClickWheelCore", "ClickWheelTestKit", "NamedThreads"],
            exclude: ["Evdev", "Golden"], swiftSettings: strict),
        .testTarget(
            name: "WebRemoteTests",
            dependencies: [
                "WebRemote", "ClickWheelCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Golden"], swiftSettings: strict),
        .testTarget(
            name: "PodcastsTests",
            dependencies: [
                "NamedThreads", "Podcasts", "ClickWheelTestKit", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            exclude: ["Resources"], swiftSettings: strict),
        .testTarget(
            name: "PlaybackTests",
            dependencies: ["NamedThreads", "Playback", "OpusFile", "Snapcast", "ClickWheelTestKit"],
            swiftSettings: strict),
        .testTarget(name: "SnapcastTests", dependencies: ["Snapcast", "Playback", "ClickWheelCore"], swiftSettings: strict),
        .testTarget(name: "NamedThreadsTests", dependencies: ["NamedThreads"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
