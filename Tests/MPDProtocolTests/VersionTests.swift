import MPDProtocol
import Testing

@Test func announcesTheProtocolVersionRealClientsParse() {
    let parts = MPDProtocolVersion.announced.split(separator: ".")
    #expect(parts.count == 3)
    #expect(parts.allSatisfy { Int($0) != nil })
}
