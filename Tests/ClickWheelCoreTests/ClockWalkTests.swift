import ClickWheelCore
import ClickWheelTestKit
import Testing

/// Extras → Clock and Alarms walked on the wheel, every new screen as a golden frame on 16x2 and 20x4:
/// the Clock (24- and 12-hour), Alarms, Create Alarm's Time editor, an alarm's screen, Repeat, Choose
/// Days, Sound, Settings → Date & Time, and the ringing alarm.
@Suite struct ClockWalkTests {
    @Test(arguments: ["16x2", "20x4"])
    func clockAndAlarmsWalk(size: String) {
        var settings = Settings()
        settings.backlightSeconds = 0
        settings.alarms = [Alarm(id: 1, hour: 7, minute: 0, days: Alarm.weekdays)]
        let h = EngineHarness(library: Fixtures.sample(), geometry: DisplayGeometry(size)!, settings: settings)
        // Saturday 28 March 2026, 06:58 CET; the weekday alarm is next on Monday, a new one rings at 07:00.
        var c = SimulatedClock(h, unixMS: AlarmDayTests.saturday0658, offset: AlarmDayTests.berlin)
        var walk = WalkRecord()
        func snap(_ label: String) { walk.snap(label, c.h.engine.frame) }

        c.h.turn(4)
        c.h.click(.select)
        snap("Extras")
        c.h.click(.select)
        snap("Clock, 24-hour, the next alarm set")
        c.h.click(.menu)
        c.h.turn(1)
        c.h.click(.select)
        snap("Alarms: the alarm and Create Alarm")
        c.h.turn(1)
        c.h.click(.select)
        snap("Create Alarm: its time, the hour first")
        c.h.turn(-1)
        c.h.turn(1)
        snap("still 07")
        c.h.click(.select)
        snap("then the minutes")
        c.h.turn(1)
        c.h.click(.select)
        snap("the new alarm's screen: 07:01")
        c.h.turn(2)
        c.h.click(.select)
        snap("Repeat")
        c.h.turn(4)
        c.h.click(.select)
        snap("Choose Days")
        c.h.click(.select)
        c.h.turn(5)
        c.h.click(.select)
        snap("Monday and Saturday on")
        c.h.click(.menu)
        c.h.click(.menu)
        snap("back on the alarm: Mo Sa")
        c.h.turn(1)
        c.h.click(.select)
        snap("Sound: Tone, Shuffle Songs, the playlists and podcasts")
        c.h.turn(2)
        c.h.click(.select)
        snap("Chill chosen")
        c.h.click(.menu)
        snap("Alarms with both")
        c.h.hold(.menu)
        c.h.turn(-1)  // the main menu's cursor stayed on Extras
        c.h.click(.select)
        c.h.turn(30)  // the last row
        c.h.click(.select)
        snap("Settings → Date & Time")
        c.h.click(.select)
        snap("12-hour")
        c.h.hold(.menu)
        c.h.turn(1)
        c.h.click(.select)
        c.h.click(.select)
        snap("Clock, 12-hour")
        // 07:01: the new alarm rings (Saturday is one of its days) over the Clock.
        c.run(untilLocal: 7, 1)
        c.run(ms: 1000)
        snap("ringing")
        c.h.click(.select)
        snap("snoozed: the Clock shows when it rings again")
        Golden.check(walk.text, name: "walk-clock-alarms-\(size).txt")
        #expect(c.h.engine.settings.alarms.count == 2)
        let added = c.h.engine.settings.alarms[1]
        #expect(added.hour == 7 && added.minute == 1 && added.days == (1 << 1 | 1 << 6))
        #expect(added.sound.title == "Chill")
    }

    @Test func screenIdentifiersOfTheNewScreens() {
        #expect(MenuCatalog.identifier(of: .clock) == "extras.clock")
        #expect(MenuCatalog.identifier(of: .menu(.alarms)) == "extras.alarms")
        #expect(MenuCatalog.identifier(of: .menu(.alarm(3))) == "extras.alarms.alarm")
        #expect(MenuCatalog.identifier(of: .menu(.dateTime)) == "settings.datetime")
    }
}
