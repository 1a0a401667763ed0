@testable import ControlServer
import MPDProtocol
import Testing

/// The server's command table (`ControlCommands.allCommands`).
@Suite struct CommandTableTests {
    /// The rows stand in name order (bytewise, as `commands` lists them), as in MPD's `AllCommands.cxx`:
    /// a command is found, and a new one added, in one place.
    @Test func rowsAreSortedByName() {
        let names = ControlCommands.allCommands.map(\.name)
        #expect(names == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Set(names).count == names.count)
    }
}
