import ClickWheelCore
import MPDProtocol

/// ClickWheel's own commands, which no MPD has: `wheel N`, `press BUTTON`, `hold BUTTON [MS]`
/// drive the UI exactly as the hardware does; `screen` shows the LCD frame (`row: …` lines, then
/// `title`, `cursor`, `count`, `depth`, and `menu`: the screen's stable name, which scripts can test
/// whatever the titles say). `screen NAME` first opens the screen of that name as if walked to from
/// the main menu, also when Settings hides a row on the way. `idle screen` waits for the next frame.
extension ControlCommands {
    /// `wheel STEPS`: turns the wheel by -10,000…10,000 steps (positive: clockwise, down the list).
    static func wheel(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let steps = try req.arguments[0].integer(in: -10_000...10_000)
        ctx.input(.wheel(steps))
    }

    /// `press BUTTON`: presses and releases a button (`button(_:)` names them).
    static func press(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        ctx.input(.press(try button(req.arguments[0])))
    }

    /// `hold BUTTON [MS]`: holds a button down for MS milliseconds (up to 60,000; 1,500 when absent).
    static func hold(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let ms = try req.arguments.dropFirst().first.map { a throws(MPDError) in Int(try a.unsigned(max: 60_000)) }
        ctx.input(.hold(try button(req.arguments[0]), ms: ms ?? 1500))
    }

    /// `screen [NAME]`: the LCD frame as it shows now; with NAME (`music.compilations`), after opening
    /// that screen, which changes the UI as `press` does and so needs the same permission.
    static func screen(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        if let name = req.arguments.first {
            guard ctx.permission.contains(.control) else {
                throw MPDError(.permission, "you don't have permission for \"screen\" with a screen to open")
            }
            _ = try ctx.control(.openScreen(name.string))
        }
        let s = ctx.playerSource.screen()
        for row in s.rows { w.field("row", row) }
        w.field("title", s.title)
        w.field("cursor", s.cursor)
        w.field("count", s.count)
        w.field("depth", s.depth)
        w.field("menu", s.menu)
    }

    /// A button by the name the extensions use: menu, select, playpause, next, prev (case-insensitive).
    static func button(_ argument: MPDArgument) throws(MPDError) -> Button {
        let names: [(String, Button)] = [
            ("menu", .menu), ("select", .select), ("playpause", .playPause), ("play", .playPause), ("next", .next),
            ("prev", .previous), ("previous", .previous),
        ]
        guard let b = names.first(where: { argument.equalsIgnoringCase($0.0) })?.1 else {
            throw .argument("Unknown button: \(argument.string) (expected menu, select, playpause, next or prev)")
        }
        return b
    }
}
