// swift-tools-version:6.0
// The SwiftNIO floor for contrib/bench/socket_bench.py: the least a server on SwiftNIO can do per request.
import PackageDescription

let package = Package(
    name: "nio-floor",
    dependencies: [.package(url: "https://github.com/apple/swift-nio", from: "2.101.2")],
    targets: [
        .executableTarget(
            name: "nio-floor",
            dependencies: [.product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")])
    ]
)
