import ArgumentParser

/// The one executable: `clickwheel index | run | ctl | debug | calibrate`.
@main
struct ClickWheelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clickwheel",
        abstract: "An iPod classic for a Raspberry Pi: music library, click wheel, character LCD, MPD socket.",
        version: ClickWheelVersion.current,
        subcommands: [IndexCommand.self, RunCommand.self, CtlCommand.self, DebugCommand.self, CalibrateCommand.self]
    )
}

enum ClickWheelVersion {
    static let current = "0.1.0"
}
