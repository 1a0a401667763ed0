/// The Clock's layout: the time in big digits on the top two rows, centred; on 4 rows the date under
/// it and the next alarm (or the ringing alarm's banner) below. On 2 rows the last column holds AM/PM's
/// letter (12-hour) and the bell when an alarm is set. A 1-row display shows the time as text.
extension LCDRenderer {
    func renderClock(_ clock: ClockView, into b: inout FrameBuilder) {
        let digits = Self.clockDigits(clock)
        let bell: [Frame.Cell] = clock.nextAlarm == nil ? [] : [b.glyph(.bell)]
        guard geometry.rows >= 2 else {
            let text =
                clock.ringing ?? (digits.trimmingLeadingSpace + (clock.time.map { Self.meridiem($0, clock) } ?? ""))
            b.write(row: 0, left: b.cells(text), right: bell)
            return
        }
        let width = BigDigits.layoutWidth(digits)
        let column = max(0, (geometry.columns - width) / 2)
        b.bigDigits(digits, row: 0, column: column)
        let meridiem = clock.time.map { Self.meridiem($0, clock) } ?? ""
        if geometry.rows >= 4 {
            if !meridiem.isEmpty { b.frame.write(b.cells(meridiem), row: 1, column: geometry.columns - 2) }
            centre(clock.ringing ?? clock.time?.dateText ?? "Clock not set", row: 2, into: &b)
            if clock.ringing != nil {
                centre("Select: Snooze", row: 3, into: &b)
            } else if let next = clock.nextAlarm {
                centre(bell + b.cells(" " + next), row: 3, into: &b)
            }
            return
        }
        let last = geometry.columns - 1
        if let m = meridiem.first { b.frame[0, last] = .char(m) }
        if !bell.isEmpty { b.frame[1, last] = bell[0] }
        if geometry.rows == 3 { centre(clock.ringing ?? clock.time?.dateText ?? "", row: 2, into: &b) }
    }

    private func centre(_ text: String, row: Int, into b: inout FrameBuilder) {
        centre(b.cells(text), row: row, into: &b)
    }

    private func centre(_ cells: [Frame.Cell], row: Int, into b: inout FrameBuilder) {
        let pad = max(0, (geometry.columns - cells.count) / 2)
        b.write(row: row, Array(repeating: .char(" "), count: pad) + cells)
    }

    /// The digits of the time as the big font draws them: "07:05", or " 7:05" on a 12-hour clock.
    static func clockDigits(_ clock: ClockView) -> String {
        guard let t = clock.time else { return "  :  " }
        var hour = t.hour
        if !clock.twentyFour { hour = hour % 12 == 0 ? 12 : hour % 12 }
        let hh = hour < 10 ? (clock.twentyFour ? "0\(hour)" : " \(hour)") : "\(hour)"
        return hh + ":" + (t.minute < 10 ? "0\(t.minute)" : "\(t.minute)")
    }

    static func meridiem(_ t: LocalTime, _ clock: ClockView) -> String {
        clock.twentyFour ? "" : (t.hour < 12 ? "AM" : "PM")
    }
}

extension String {
    fileprivate var trimmingLeadingSpace: String { String(drop { $0 == " " }) }
}
