// clickwheel-play: plays MP3 files one after the other (gapless) through Playback.AudioPlayer, for the
// benchmark and for trying the audio path by hand. Not installed; `clickwheel run` is the real entry point.
//
// Usage: clickwheel-play [--null] [--volume 0-100] [--quiet] [--spoken] [--speed 0.5-3] FILE...
// --spoken plays the files as spoken word (podcast episodes), at --speed (default 1).
// Prints every report on stderr with the seconds since start, and `play-issued <unix ns>` on stdout when
// the first play command is sent (playback_bench.sh measures play → sound from it). Exits 0 after the last
// track finished, 1 when a track failed.
import Foundation
import Playback

var files: [String] = []
var output = AudioPlayer.Output.pulse(server: nil)
var volume = 100
var quiet = false
var spoken = false
var speed = 1.0
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    switch arg {
    case "--null": output = .null
    case "--quiet": quiet = true
    case "--volume": volume = Int(args.popFirst() ?? "") ?? 100
    case "--spoken": spoken = true
    case "--speed": speed = Double(args.popFirst() ?? "") ?? 1
    case "-h", "--help":
        print("usage: clickwheel-play [--null] [--volume 0-100] [--quiet] [--spoken] [--speed 0.5-3] FILE...")
        exit(0)
    default: files.append(arg)
    }
}
guard !files.isEmpty else {
    FileHandle.standardError.write(Data("clickwheel-play: no files given\n".utf8))
    exit(64)
}

let tracks = files.enumerated().map { AudioTrack(id: $0.offset + 1, path: $0.element, spokenWord: spoken) }
let player = AudioPlayer(output: output, positionInterval: 1)
let start = Date()
player.setVolume(volume)
player.setSpokenWordSpeed(speed)
var now = timespec()
clock_gettime(CLOCK_REALTIME, &now)
FileHandle.standardOutput.write(Data("play-issued \(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))\n".utf8))
player.play(tracks[0])

// The reports are read on the cooperative pool while the main thread waits on a semaphore, not in an async
// top-level loop: that would make the main thread leave through dispatch_main (pthread_exit), which
// valgrind 3.19 does not survive, and the benchmark counts this player's instructions under callgrind.
let done = DispatchSemaphore(value: 0)
Task.detached { [quiet, start, tracks, player, done] in
    var failed = false
    for await event in player.reports {
        let report = event.report
        if !quiet || !(report.isPosition) {
            let t = String(format: "%7.3f", Date().timeIntervalSince(start))
            FileHandle.standardError.write(Data("[\(t)] \(report)\n".utf8))
        }
        switch report {
        case .started(let id):
            if id < tracks.count { player.enqueueNext(tracks[id]) }
        case .finished(let id):
            if id == tracks.count {
                player.shutdown()
                exit(failed ? 1 : 0)
            }
        case .failed(let id, _):
            failed = true
            if id < tracks.count { player.play(tracks[id]) } else {
                player.shutdown()
                exit(1)
            }
        default: break
        }
    }
    done.signal()
}
done.wait()

extension PlayerReport {
    var isPosition: Bool {
        if case .position = self { return true }
        return false
    }
}
