import ArgumentParser

/// The one executable: `clickwheel index | run | ctl | debug | calibrate`.
///
/// Async because `run` is (swift-argument-parser runs an async subcommand only under an async root);
/// the other subcommands stay synchronous.
@main
struct ClickWheelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clickwheel",
        abstract: "An iPod classic for a Raspberry Pi: music library, click wheel, character LCD, MPD socket.",
        version: ClickWheelVersion.current,
        subcommands: [IndexCommand.self, RunCommand.self, CtlCommand.self, DebugCommand.self, CalibrateCommand.self, PodcastsCommand.self]
    )
}

enum ClickWheelVersion {
    static let current = "0.1.0"
}
