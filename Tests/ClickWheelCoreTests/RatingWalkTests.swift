import ClickWheelCore
import ClickWheelTestKit
import Testing

/// Rate Song from a song's context menu and the smart playlists it feeds, frame by frame against
/// golden files for 16x2 and 20x4 (stars drawn with custom glyphs; My Top Rated shows them beside
/// the title where the display is 20 columns or wider).
@Suite struct RatingWalkTests {
    @Test(arguments: ["16x2", "20x4"])
    func rateSongAndMyTopRated(size: String) throws {
        let library = Fixtures.sample()
        var h = EngineHarness(library: library, geometry: try #require(DisplayGeometry(size)))
        var walk = WalkRecord()
        h.click(.select)  // Music
        h.turn(3)
        h.click(.select)  // Songs
        h.turn(2)
        walk.snap("Songs, third song", h.engine.frame)
        h.hold(.select)
        h.turn(10)
        walk.snap("its context menu: Rate Song last", h.engine.frame)
        h.click(.select)
        walk.snap("Rate Song: on No Rating", h.engine.frame)
        h.turn(4)
        walk.snap("four stars", h.engine.frame)
        h.click(.select)
        walk.snap("back in Songs", h.engine.frame)
        guard case .rate(let id, let rating)? = h.lastEffects.first else {
            Issue.record("no rating effect: \(h.lastEffects)")
            return
        }
        #expect(rating == 8)
        library.rate(id, rating: rating)
        library.rate(1, rating: 7)
        library.rate(2, rating: 10)
        h.send(.libraryChanged(at: h.now))
        h.hold(.select)
        h.turn(10)
        h.click(.select)
        walk.snap("Rate Song again: on four stars", h.engine.frame)
        for _ in 0..<3 { h.click(.menu) }
        h.turn(-10)
        h.click(.select)  // Playlists
        h.turn(3)
        walk.snap("Playlists: the smart ones after On-The-Go", h.engine.frame)
        h.click(.select)
        walk.snap("My Top Rated", h.engine.frame)
        Golden.check(walk.text, name: "walk-rating-\(size).txt")
    }

    @Test func theWheelMovesByWholeStarsFromAHalfStar() {
        #expect(Rating.stepped(7, by: 1) == 8)
        #expect(Rating.stepped(7, by: -1) == 6)
        #expect(Rating.stepped(8, by: 1) == 10)
        #expect(Rating.stepped(10, by: 1) == 10)
        #expect(Rating.stepped(1, by: -1) == 0)
        #expect(Rating.stepped(0, by: -1) == 0)
        #expect(Rating.parse("7") == 7)
        #expect(Rating.parse(" 7.5 ") == 8)
        #expect(Rating.parse("10") == 10)
        #expect(Rating.parse("-1") == nil)
        #expect(Rating.parse("inf") == nil)
        #expect(Rating.parse("") == nil)
    }
}
