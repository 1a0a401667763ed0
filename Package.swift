// swift-tools-version: 6.1
// ClickWheel: an iPod classic for a Raspberry Pi, as one Swift service. See README.md and DESIGN notes there.
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

        // Thin wrappers: one class owns each C handle, typed errors per library.
        .target(name: "Mpg123", dependencies: ["CMpg123"], swiftSettings: strict),
        .target(name: "Pulse", dependencies: ["CPulse"], swiftSettings: strict),

        // The pure core: no C imports, no I/O, no sleeping.
        .target(name: "ClickWheelCore", swiftSettings: strict),

        // The music library: SQLite store (GRDB), scanner, tag reader, queries.
        .target(
            name: "Library",
            dependencies: [
                "ClickWheelCore", "Mpg123",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),

        // The audio path: a decode/output thread of its own, libmpg123 -> PulseAudio (or a null output).
        .target(
            name: "Playback",
            dependencies: ["ClickWheelCore", "Mpg123", "Pulse", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),

        // The MPD protocol as a pure codec.
        .target(name: "MPDProtocol", dependencies: ["ClickWheelCore"], swiftSettings: strict),

        .executableTarget(
            name: "clickwheel",
            dependencies: [
                "Library", "ClickWheelCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),

        // A tiny player for contrib/bench/playback_bench.sh and trying the audio path by hand.
        .executableTarget(
            name: "clickwheel-play", dependencies: ["Playback"], path: "contrib/bench/Sources/clickwheel-play",
            swiftSettings: strict),

        .testTarget(name: "ClickWheelCoreTests", dependencies: ["ClickWheelCore"], swiftSettings: strict),
        .testTarget(
            name: "LibraryTests",
            dependencies: ["Library", "Mpg123", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Fixtures", "Schema"],
            swiftSettings: strict),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "Pulse"], swiftSettings: strict),
        .testTarget(name: "MPDProtocolTests", dependencies: ["MPDProtocol"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
