import ArgumentParser
import ClickWheelConfig
import Foundation

/// `clickwheel ctl`: drives a running ClickWheel over its control socket from a shell.
struct CtlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Control a running ClickWheel over its socket: turn the wheel, press buttons, read the screen.",
        discussion: """
            Actions:
              wheel N              turn the wheel N steps (negative: anticlockwise)
              press BUTTON         click menu, select, playpause, next or prev
              hold BUTTON [MS]     hold a button (default 1500 ms)
              screen [NAME] [--follow]
                                   print the LCD's rows (first opening screen NAME, e.g. music.compilations);
                                   with --follow, again at every new frame
              send 'LINE'          send any MPD command line and print the answer
            Exit status: 0 on OK, 1 when the service answers with an error or cannot be reached, 64 for a usage error.
            """)

    @Option(help: ArgumentHelp("The control socket (env CLICKWHEEL_SOCKET).", valueName: "PATH"))
    var socket: String?

    @Option(help: ArgumentHelp("The configuration file, for its socket path.", valueName: "FILE"))
    var config: String?

    @Flag(help: "With screen: print the screen again at every new frame until interrupted.")
    var follow = false

    /// `.allUnrecognized`: a negative number (`wheel -1`) is an argument here, not an unknown option;
    /// anything else that looks like an option is refused by `validate()` as an unknown action.
    @Argument(parsing: .allUnrecognized, help: "The action and its arguments.")
    var action: [String]

    /// The action's words, without the `--` that may end the options (`ctl -- wheel -1`).
    private var words: [String] { action.first == "--" ? Array(action.dropFirst()) : action }

    func validate() throws {
        let action = words
        guard let verb = action.first else { throw ValidationError("name an action: wheel, press, hold, screen or send") }
        let counts: [String: ClosedRange<Int>] = ["wheel": 1...1, "press": 1...1, "hold": 1...2, "screen": 0...1, "send": 1...1]
        guard let range = counts[verb] else { throw ValidationError("unknown action '\(verb)'") }
        guard range.contains(action.count - 1) else { throw ValidationError("'\(verb)' takes \(range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)") argument(s)") }
        if verb == "wheel", Int(action[1]) == nil { throw ValidationError("wheel takes a whole number of steps") }
        if follow && verb != "screen" { throw ValidationError("--follow goes with screen") }
    }

    func run() throws {
        let path = try Failure.configuration(explicit: config, flags: socket.map { ["socket": $0] } ?? [:]).config.socket
        let client: SocketClient
        do {
            client = try SocketClient(path: path)
        } catch {
            throw Failure.exit(command: "clickwheel ctl", "cannot reach ClickWheel at \(path): \(error)")
        }
        let action = words
        let verb = action[0]
        let line: String
        switch verb {
        case "send": line = action[1]
        case "screen": line = (["screen"] + action.dropFirst().map(SocketClient.quote)).joined(separator: " ")
        default: line = ([verb] + action.dropFirst().map(SocketClient.quote)).joined(separator: " ")
        }
        try answer(client, line, rowsOnly: verb == "screen")
        while follow {
            _ = try client.request("idle screen")
            try answer(client, "screen", rowsOnly: true)
        }
    }

    /// Sends `line`, prints the reply (for `screen`, only the rows), fails on ACK.
    private func answer(_ client: SocketClient, _ line: String, rowsOnly: Bool) throws {
        let reply: [String]
        do {
            reply = try client.request(line)
        } catch {
            throw Failure.exit(command: "clickwheel ctl", "\(error)")
        }
        if let last = reply.last, last.hasPrefix("ACK ") {
            throw Failure.exit(command: "clickwheel ctl", last)
        }
        var out = ""
        for l in reply.dropLast() {
            if rowsOnly {
                if l.hasPrefix("row: ") { out += l.dropFirst(5) + "\n" }
            } else {
                out += l + "\n"
            }
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }
}
