import ClickWheelCore
import ClickWheelTestKit
import Foundation
import Testing

/// A simulated wall clock beside the harness's monotonic one, ticked the way the service does it (a
/// clock sample, then a tick, at each time `Engine.nextTick` names): alarms, snooze, DST, clock jumps,
/// an unsynchronised clock, standby and a restart, over simulated days.
struct SimulatedClock {
    var h: EngineHarness
    /// Unix ms at harness time `origin`; jumps move it.
    var unixAtOrigin: Int64
    var origin: Timestamp
    var synced = true
    /// The zone's offset for a Unix time (a DST rule, or a fixed one).
    var offset: @Sendable (Int64) -> Int = { _ in 3600 }

    init(_ h: EngineHarness, unixMS: Int64, offset: @escaping @Sendable (Int64) -> Int = { _ in 3600 }) {
        self.h = h
        unixAtOrigin = unixMS
        origin = h.now
        self.offset = offset
        sample()
    }

    var unixNow: Int64 { unixAtOrigin + h.now.milliseconds(since: origin) }

    var local: LocalTime { LocalTime(localMS: unixNow + Int64(offset(unixNow)) * 1000) }

    mutating func sample() {
        let u = unixNow
        wasRinging = ringing
        h.send(
            .clock(WallClock(unixMS: u, utcOffsetSeconds: offset(u), synced: synced, zone: "Europe/Berlin"), at: h.now))
        observe()
    }

    /// Lets `ms` pass as the service does: a sample and a tick at each time the engine asks for.
    mutating func run(ms: Int64) {
        let end = h.now.adding(ms: ms)
        while let next = h.engine.nextTick(), next <= end {
            h.setNow(max(h.now.adding(ms: 1), next))
            sample()
            h.send(.tick(h.now))
            observe()
        }
        h.setNow(end)
        sample()
    }

    /// Runs until the local clock reads `hh:mm` (within the next day).
    mutating func run(untilLocal hour: Int, _ minute: Int) {
        // In steps of at most an hour, looking again after each: a DST change on the way moves the target.
        let target = hour * 60 + minute
        var first = true
        while true {
            var ahead = (target - (local.hour * 60 + local.minute) + 1440) % 1440
            if ahead == 0 && first { ahead = 1440 }  // the next time, not now
            first = false
            if ahead == 0 { break }
            run(ms: Int64(min(ahead, 60)) * 60_000 - (unixNow + Int64(offset(unixNow)) * 1000) % 60_000)
        }
    }

    /// The wall clock steps by `ms` (NTP), the monotonic clock does not.
    mutating func jump(ms: Int64) {
        unixAtOrigin += ms
        sample()
    }

    /// How many times an alarm started ringing (seen after every step this clock drives).
    var rings = 0
    private var wasRinging = false
    var ringing: Bool { h.engine.alarmClock.ringing != nil }

    private mutating func observe() {
        if ringing && !wasRinging { rings += 1 }
        wasRinging = ringing
    }
}

@Suite struct AlarmDayTests {
    /// 2026-03-28 (a Saturday) 06:58 CET as Unix ms.
    static let saturday0658: Int64 = 1_774_677_480_000
    /// The EU's DST switches of 2026: 29 March 01:00 UTC and 25 October 01:00 UTC.
    static let springForward: Int64 = 1_774_746_000_000
    static let fallBack: Int64 = 1_792_890_000_000
    static let berlin: @Sendable (Int64) -> Int = { $0 >= springForward && $0 < fallBack ? 7200 : 3600 }

    func clock(_ alarms: [Alarm], unixMS: Int64 = saturday0658, backlight: Int = 0) -> SimulatedClock {
        var settings = Settings()
        settings.backlightSeconds = backlight
        settings.alarms = alarms
        let h = EngineHarness(
            library: Fixtures.sample(), geometry: DisplayGeometry(columns: 20, rows: 4), settings: settings)
        return SimulatedClock(h, unixMS: unixMS, offset: Self.berlin)
    }

    func volumes(_ effects: [Effect]) -> [Int] {
        effects.compactMap { if case .playback(.volume(let v)) = $0 { v } else { nil } }
    }

    @Test func theClockReadsLocalTime() {
        let c = clock([])
        #expect(c.local == LocalTime(localMS: Self.saturday0658 + 3_600_000))
        #expect(c.local.dateText == "Sat 28 Mar 2026" && c.local.hour == 6 && c.local.minute == 58)
    }

    @Test func aDailyAlarmRingsFadesUpSnoozesAndStops() {
        var c = clock([Alarm(id: 1, hour: 7, minute: 0, days: Alarm.everyDay, volume: 60)])
        c.run(ms: 60_000)
        #expect(!c.ringing, "06:59: not yet")
        let before = c.h.effects.count
        c.run(ms: 60_000)
        #expect(c.ringing, "07:00 rings")
        #expect(c.local.hour == 7 && c.local.minute == 0)
        c.run(ms: 31_000)
        let fade = volumes(Array(c.h.effects[before...]))
        #expect(fade.first == 6, "starts at a tenth of the alarm's volume")
        #expect(fade.last == 60, "ends at the alarm's volume")
        #expect(fade == fade.sorted() && fade.count >= 25, "rises in steps over 30 s: \(fade)")
        #expect(c.h.effects[before...].contains(.alarmTone(volume: 6)), "Sound: Tone beeps")
        #expect(c.h.engine.settings.volume == 60)

        c.h.click(.select)
        #expect(!c.ringing, "Select snoozes")
        c.run(ms: 8 * 60_000)
        #expect(!c.ringing, "not before nine minutes")
        c.run(ms: 60_000)
        #expect(c.ringing, "the snooze rings nine minutes later")
        c.h.click(.menu)
        #expect(!c.ringing, "Menu stops")
        c.run(ms: 20 * 3_600_000)
        #expect(!c.ringing, "nothing more that day")
        let rungBefore = c.rings
        c.run(untilLocal: 7, 0)
        c.run(ms: 1000)
        #expect(c.ringing && c.rings == rungBefore + 1, "and again the next morning")
        c.h.click(.playPause)
        #expect(!c.ringing, "Play/Pause stops")
    }

    @Test func onceWeekdaysAndChosenDays() {
        // Saturday 28 March: weekdays does not ring, weekends and once do; once turns itself off.
        var c = clock([
            Alarm(id: 1, hour: 7, minute: 0, days: Alarm.weekdays),
            Alarm(id: 2, hour: 7, minute: 5, days: Alarm.weekends),
            Alarm(id: 3, hour: 7, minute: 10, days: 0),
            Alarm(id: 4, hour: 7, minute: 15, days: 1 << 1),  // Mondays only
        ])
        c.run(ms: 3 * 60_000)
        #expect(!c.ringing, "weekdays: not on a Saturday")
        c.run(ms: 5 * 60_000)
        #expect(c.ringing, "weekends: on Saturday")
        c.h.click(.menu)
        c.run(ms: 5 * 60_000)
        #expect(c.ringing, "once rings")
        c.h.click(.menu)
        #expect(c.h.engine.settings.alarms[2].enabled == false, "and turns itself off")
        #expect(c.h.effects.contains(.persist(c.h.engine.settings)), "stored")
        c.run(ms: 10 * 60_000)
        #expect(!c.ringing, "Mondays only: not on Saturday")
        // Monday 30 March (after the DST change: CEST) at 07:00 the weekday alarm rings.
        c.run(untilLocal: 7, 0)
        c.run(ms: 1000)
        #expect(!c.ringing, "Sunday: none")
        c.run(untilLocal: 7, 0)
        c.run(ms: 1000)
        #expect(c.local.weekday == 1 && c.ringing, "Monday 07:00: weekdays rings")
    }

    @Test func springForwardRingsTheSkippedAlarmOnceAndFallBackDoesNotRingTwice() {
        // 29 March, 01:50 CET: at 02:00 the clock goes to 03:00; an alarm at 02:30 lies in the gap.
        var c = clock(
            [Alarm(id: 1, hour: 2, minute: 30, days: Alarm.everyDay)], unixMS: Self.springForward - 10 * 60_000)
        c.run(ms: 9 * 60_000)
        #expect(!c.ringing && c.local.hour == 1)
        c.run(ms: 60_000)
        #expect(c.local.hour == 3 && c.local.minute == 0, "local time jumped to 03:00")
        #expect(c.ringing, "the alarm the jump skipped rings at once")
        c.h.click(.menu)
        c.run(ms: 3_600_000)
        #expect(!c.ringing && c.rings == 1)

        // 25 October, 02:20 CEST: at 03:00 CEST the clock goes back to 02:00 CET and 02:30 comes twice.
        var f = clock([Alarm(id: 1, hour: 2, minute: 30, days: Alarm.everyDay)], unixMS: Self.fallBack - 40 * 60_000)
        f.run(ms: 11 * 60_000)
        #expect(f.ringing && f.local.hour == 2, "02:30 CEST rings")
        f.h.click(.menu)
        f.run(ms: 2 * 3_600_000)
        #expect(f.rings == 1, "the repeated 02:30 does not ring again")
    }

    @Test func clockJumpsNeitherRingTwiceNorSkip() {
        var c = clock([Alarm(id: 1, hour: 7, minute: 10, days: Alarm.everyDay)])
        // NTP steps the clock 20 minutes forward over 07:10.
        c.jump(ms: 20 * 60_000)
        c.run(ms: 1000)
        #expect(c.ringing, "the alarm inside the jump rings right after it")
        c.h.click(.menu)
        // And back 15 minutes: 07:10 comes again, but it rang.
        c.jump(ms: -15 * 60_000)
        c.run(ms: 30 * 60_000)
        #expect(!c.ringing && c.rings == 1, "no second ring")
        // A jump of 28 hours (a long suspend): what it skipped hours ago is logged, not rung late.
        c.jump(ms: 28 * 3_600_000)
        c.run(ms: 1000)
        #expect(!c.ringing)
        #expect(c.h.effects.contains(.log("alarm 07:10 missed: the clock jumped past it")))
    }

    @Test func anUnsynchronisedClockNeverRingsAndLogsTheMissOnce() {
        var c = clock([Alarm(id: 1, hour: 7, minute: 0, days: Alarm.everyDay)])
        c.synced = false
        c.sample()
        c.run(ms: 10 * 60_000)
        #expect(!c.ringing, "07:00 passed on an unsynchronised clock")
        let logs = c.h.effects.filter { if case .log = $0 { true } else { false } }
        #expect(logs == [.log("alarm 07:00 missed: the clock is not synchronised")], "logged once")
        // NTP answers and steps the clock back over 07:00: a fresh start, nothing rings retroactively.
        c.synced = true
        c.jump(ms: -5 * 60_000)
        c.run(ms: 60_000)
        #expect(!c.ringing)
        c.run(untilLocal: 7, 0)
        c.run(ms: 1000)
        #expect(c.ringing, "synchronised, the next morning rings")
    }

    @Test func ringsFromStandbyWithThePlaylistAndMPDHearsPlayer() {
        var c = clock(
            [Alarm(id: 1, hour: 7, minute: 0, days: 0, sound: .playlist(id: 1, name: "Road Trip"), volume: 40)],
            backlight: 10)
        c.run(ms: 60_000)
        #expect(c.h.effects.contains(.backlight(on: false)), "standby: the screen went dark")
        #expect(c.h.engine.player.status == .stopped)
        let before = c.h.effects.count
        c.run(ms: 61_000)
        let rung = Array(c.h.effects[before...])
        #expect(rung.contains(.backlight(on: true)), "the backlight comes on")
        #expect(rung.contains(.playback(.play(index: 0))), "the playlist plays")
        #expect(rung.contains(.notify(.player)), "MPD clients hear player")
        #expect(c.h.engine.player.status == .playing && c.h.engine.player.queue.count == 4)
        c.h.click(.select)
        #expect(c.h.engine.player.status == .paused, "snooze pauses")
    }

    @Test func aSnoozeSurvivesARestart() throws {
        var c = clock([Alarm(id: 1, hour: 7, minute: 0, days: Alarm.everyDay)])
        c.run(ms: 2 * 60_000 + 1000)
        c.h.click(.select)
        // What was stored, as the settings store keeps it (JSON), read back by a new engine.
        guard case .persist(let stored)? = c.h.effects.last(where: { if case .persist = $0 { true } else { false } })
        else {
            Issue.record("nothing stored")
            return
        }
        let json = try JSONEncoder().encode(stored)
        let restored = try JSONDecoder().decode(Settings.self, from: json)
        #expect(restored.alarms[0].snoozeUntilUnixMS != nil && restored.alarms[0].lastRungLocalMinute != nil)
        let h = EngineHarness(
            library: Fixtures.sample(), geometry: DisplayGeometry(columns: 20, rows: 4), settings: restored)
        var r = SimulatedClock(h, unixMS: c.unixNow + 60_000, offset: Self.berlin)
        r.run(ms: 7 * 60_000)
        #expect(!r.ringing)
        r.run(ms: 60_000)
        #expect(r.ringing, "the snooze rang after the restart")
    }
}
