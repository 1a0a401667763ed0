import ClickWheelCore
import Testing

@Test func browseRowsCompareByValue() {
    let a = BrowseRow(id: 1, kind: .song, title: "A", initial: "A")
    var b = a
    #expect(a == b)
    b.partlyPlayed = true
    #expect(a != b)
}
