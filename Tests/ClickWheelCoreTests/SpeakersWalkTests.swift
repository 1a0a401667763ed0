import ClickWheelCore
import ClickWheelTestKit
import Testing

/// Main menu → Speakers: the rooms the service sends (`Event.speakers`), switched and set with the wheel
/// (`Effect.speakers`); a walk compared frame by frame with golden files for 16x2 and 20x4.
@Suite struct SpeakersWalkTests {
    static let kitchen = SpeakerRoom(id: "room-a", name: "Kitchen", connected: true, muted: false, volume: 80)
    static let living = SpeakerRoom(id: "room-b#2", name: "Living Room", connected: true, muted: true, volume: 35)
    static let online = Speakers(server: .online, rooms: [kitchen, living], thisPi: true)

    func harness(size: String = "20x4") throws -> EngineHarness {
        var settings = Settings()
        settings.backlightSeconds = 0
        settings.clicker = .off
        return EngineHarness(
            library: Fixtures.sample(), geometry: try #require(DisplayGeometry(size)), settings: settings)
    }

    /// The Speakers commands among the last event's effects.
    func commands(_ h: EngineHarness) -> [SpeakerCommand] {
        h.lastEffects.compactMap { if case .speakers(let c) = $0 { c } else { nil } }
    }

    /// Main menu → Speakers (after Extras: Music, Podcasts, Shuffle Songs, Settings, Extras, Speakers).
    func openSpeakers(_ h: inout EngineHarness) {
        h.turn(5)
        h.click(.select)
    }

    @Test func theMainMenuShowsSpeakersOnlyWithSnapcast() throws {
        var h = try harness()
        h.turn(10)
        #expect(h.engine.top.cursor == 4, "without Snapcast, Extras is the last row")
        h.send(.speakers(Self.online, at: h.now))
        h.turn(10)
        #expect(h.engine.top.cursor == 5)
        #expect(h.screen.contains { $0.contains("Speakers") })
    }

    @Test(arguments: ["16x2", "20x4"])
    func roomsAreListedSwitchedAndSet(size: String) throws {
        var h = try harness(size: size)
        var walk = WalkRecord()
        h.send(.speakers(Speakers(server: .connecting, rooms: [], thisPi: true), at: h.now))
        openSpeakers(&h)
        walk.snap("Speakers before the server answered", h.engine.frame)
        h.send(.speakers(Self.online, at: h.now.adding(ms: 1)))
        walk.snap("This Pi on, Kitchen at 80 %, Living Room muted", h.engine.frame)
        h.turn(1)
        h.click(.select)
        #expect(commands(h) == [.setRoom(id: "room-a", on: false)])
        walk.snap("Select on Kitchen: off", h.engine.frame)
        h.turn(1)
        h.click(.select)
        #expect(commands(h) == [.setRoom(id: "room-b#2", on: true)])
        walk.snap("Select on Living Room: on at its volume", h.engine.frame)
        h.hold(.select)
        #expect(MenuCatalog.identifier(of: h.engine.top.destination) == "speakers.volume")
        walk.snap("hold Select: Living Room's volume", h.engine.frame)
        h.turn(5)
        #expect(commands(h) == [.setVolume(id: "room-b#2", percent: 40)])
        walk.snap("five steps up: 40 %", h.engine.frame)
        // A change made elsewhere (Snapweb) shows as it comes.
        var later = Self.online
        later.rooms[0].muted = true
        later.rooms[1] = SpeakerRoom(id: "room-b#2", name: "Living Room", connected: true, muted: false, volume: 62)
        h.send(.speakers(later, at: h.now.adding(ms: 1)))
        walk.snap("Snapweb set 62 %", h.engine.frame)
        h.click(.select)
        #expect(commands(h) == [.setRoom(id: "room-b#2", on: false)])
        walk.snap("Select on the volume screen: off", h.engine.frame)
        h.click(.menu)
        h.turn(-2)
        h.click(.select)
        #expect(commands(h) == [.setThisPi(on: false)])
        walk.snap("This Pi off", h.engine.frame)
        later.thisPi = false
        later.rooms[1].muted = true
        var gone = later
        gone.rooms[0].connected = false
        h.send(.speakers(gone, at: h.now.adding(ms: 1)))
        walk.snap("Kitchen's snapclient went away", h.engine.frame)
        h.send(.speakers(Speakers(server: .offline, rooms: later.rooms, thisPi: false), at: h.now.adding(ms: 2)))
        walk.snap("the server went away", h.engine.frame)
        h.send(.speakers(Speakers(server: .online, rooms: [], thisPi: false), at: h.now.adding(ms: 3)))
        walk.snap("back, with no clients", h.engine.frame)
        Golden.check(walk.text, name: "walk-speakers-\(size).txt")
    }

    @Test func theCursorStaysOnItsRoomWhenRoomsComeAndGo() throws {
        var h = try harness()
        h.send(.speakers(Self.online, at: h.now))
        openSpeakers(&h)
        h.turn(2)  // Living Room
        let newcomer = SpeakerRoom(id: "attic", name: "Attic", connected: true, muted: false, volume: 50)
        h.send(
            .speakers(Speakers(server: .online, rooms: [newcomer, Self.kitchen, Self.living], thisPi: true), at: h.now))
        #expect(h.engine.top.cursor == 3)
        h.click(.select)
        #expect(commands(h) == [.setRoom(id: "room-b#2", on: true)])
    }

    @Test func theVolumeStopsAtTheEndsAndAGoneRoomSaysSo() throws {
        var h = try harness()
        h.send(.speakers(Self.online, at: h.now))
        openSpeakers(&h)
        h.turn(1)
        h.hold(.select)
        h.turn(30)
        #expect(h.engine.speakers?.room("room-a")?.volume == 100)
        #expect(commands(h).isEmpty, "nothing past 100")
        h.send(.speakers(Speakers(server: .online, rooms: [Self.living], thisPi: true), at: h.now))
        #expect(h.screen.contains { $0.contains("Room gone") })
        h.turn(1)
        #expect(commands(h).isEmpty)
    }

    @Test func holdSelectOnThisPiOrANoticeOpensNothing() throws {
        var h = try harness()
        h.send(.speakers(Speakers(server: .offline, rooms: [], thisPi: nil), at: h.now))
        openSpeakers(&h)
        #expect(h.screen.contains { $0.contains("Server offline") })
        h.hold(.select)
        h.click(.select)
        #expect(MenuCatalog.identifier(of: h.engine.top.destination) == "speakers")
        #expect(h.effects.allSatisfy { if case .speakers = $0 { false } else { true } })
    }

    @Test func scriptsOpenSpeakersByNameOnlyWhenItIsShown() throws {
        var h = try harness()
        guard
            case .failure(.noSuchScreen(_, let known)) = h.engine.control(.openScreen("speakers"), at: .ms(1000)).result
        else {
            Issue.record("Speakers opened without Snapcast")
            return
        }
        #expect(!known.contains("speakers"))
        h.send(.speakers(Self.online, at: .ms(1100)))
        #expect(throws: Never.self) { try h.engine.control(.openScreen("speakers"), at: .ms(1200)).result.get() }
        #expect(h.engine.position().menu == "speakers" && h.engine.position().count == 3)
    }
}
