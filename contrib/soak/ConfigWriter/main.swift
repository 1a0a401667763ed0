// clickwheel-config-writer: Settings → Wheel → Save's write, in a loop, for contrib/soak/powercut.py.
//
//   clickwheel-config-writer FILE
//
// Writes calibration results into the configuration FILE one after another through
// `CalibrationSettings.write`, the call the running service makes when the wheel's Save is chosen
// (ClickWheelService/DeviceSetup.swift): the keys set with their comments, the rest of the file kept,
// the file replaced atomically. Before each write it prints `next ` and the base64 of the text the file
// will hold, after it `done`, each line flushed: a harness that kills this process (and the service
// reading the file) at a random moment then knows the two texts the file may hold, the last one done
// and the one under way. Runs until killed.
import ClickWheelConfig
import ClickWheelCore
import Foundation

/// One line to standard output, written at once (no buffer a kill could lose).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: clickwheel-config-writer FILE\n".utf8))
    exit(64)
}
let path = CommandLine.arguments[1]
var round = 0
while true {
    round += 1
    let result = CalibrationResult(
        wheel: .rotary(axis: 8, stepsPerDetent: [1, 2, 4][round % 3], eventsPerTurn: 24 * [1, 2, 4][round % 3]),
        inverted: round % 2 == 0, selectKey: round % 5 == 0 ? nil : 28)
    do {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let next = try ConfigFileEditor.apply(
            CalibrationSettings.settings(for: result), to: text, fileName: (path as NSString).lastPathComponent)
        say("next " + Data(next.utf8).base64EncodedString())
        try CalibrationSettings.write(result, toFile: path)
        say("done")
    } catch {
        FileHandle.standardError.write(Data("clickwheel-config-writer: \(error)\n".utf8))
        exit(1)
    }
}
