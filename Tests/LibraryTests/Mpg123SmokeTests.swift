import Mpg123
import Testing

@Test func handleCanBeCreatedAndDropped() throws {
    let h = try Mpg123Handle()
    #expect(h.length == nil)
}
