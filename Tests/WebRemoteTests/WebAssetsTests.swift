import Foundation
import Testing

@testable import WebRemote

/// The page built into the binary is the one in Sources/WebRemote/Assets/.
@Suite struct WebAssetsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/WebRemote/Assets")

    @Test func theBuiltInAssetsAreTheFiles() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        #expect(
            names.map { "/" + $0 } == WebAssets.files.keys.sorted(),
            "run contrib/dev/embed-web-assets.py after changing Sources/WebRemote/Assets/")
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
            #expect(
                WebAssets.files["/" + name]?.bytes == bytes,
                "\(name) differs from the built-in copy: run contrib/dev/embed-web-assets.py")
        }
    }
}
