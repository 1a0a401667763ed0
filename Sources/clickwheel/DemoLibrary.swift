import ArgumentParser
import Foundation

/// The demo library of `--demo`: a small tagged MP3 folder made once (synthesised tones encoded by
/// `lame`), then reused.
///
/// The folder is built under a temporary name beside its final place and renamed into place only
/// when every file is written, so an interrupted run leaves no half library: the next run starts
/// again (and removes what a dead run left). A folder that holds an older version's marker is
/// replaced; a folder without the marker is not ours and is never touched. Called from the main
/// thread before the service starts.
struct DemoLibrary {
    /// Bumped whenever the content changes, so an older demo library is made again.
    static let version = 1
    static let markerName = ".clickwheel-demo"
    static let lameMissing = "clickwheel: --demo needs the 'lame' encoder (apt-get install lame)"

    /// Where the library lives (`$XDG_DATA_HOME/clickwheel/demo`).
    let folder: URL

    init(folder: String) {
        self.folder = URL(fileURLWithPath: folder)
    }

    /// A failure that stops `--demo`; `description` is the one line for stderr.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// True when the folder holds this version's complete library.
    var isReady: Bool {
        let marker = folder.appendingPathComponent(Self.markerName)
        return (try? String(contentsOf: marker, encoding: .utf8)) == Self.markerText
    }

    static var markerText: String { "clickwheel demo library \(version)\n" }

    /// Makes the library in `folder` unless it is ready; on failure says why in one line on stderr
    /// and exits with status 1.
    static func prepareOrExit(folder: String) throws(ExitCode) {
        do {
            try DemoLibrary(folder: folder).prepare { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode.failure
        }
    }

    /// Makes the library unless it is ready. `log` receives one line before the work starts.
    func prepare(log: (String) -> Void) throws(Failure) {
        if isReady { return }
        let fm = FileManager.default
        if fm.fileExists(atPath: folder.path),
            !fm.fileExists(atPath: folder.appendingPathComponent(Self.markerName).path)
        {
            throw Failure(description: "clickwheel: \(folder.path) exists but is not a demo library; move it away")
        }
        guard let lame = Self.findExecutable("lame") else { throw Failure(description: Self.lameMissing) }
        let parent = folder.deletingLastPathComponent()
        let base = folder.lastPathComponent
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "clickwheel: cannot create \(parent.path): \(error.localizedDescription)")
        }
        removeAbandonedPartials(in: parent, base: base)
        let partial = parent.appendingPathComponent("\(base).partial-\(getpid())")
        log("clickwheel: making the demo library in \(folder.path) (once; a few seconds)")
        do {
            try? fm.removeItem(at: partial)
            try fm.createDirectory(at: partial, withIntermediateDirectories: true)
            for track in Self.tracks {
                try Self.write(track, into: partial, lame: lame)
            }
            for playlist in Self.playlists {
                try Data(playlist.text.utf8).write(to: partial.appendingPathComponent(playlist.name))
            }
            try Data(Self.markerText.utf8).write(to: partial.appendingPathComponent(Self.markerName))
            if fm.fileExists(atPath: folder.path) {  // an older version (checked above): replace it
                let old = parent.appendingPathComponent("\(base).old-\(getpid())")
                try fm.moveItem(at: folder, to: old)
                try? fm.removeItem(at: old)
            }
            try fm.moveItem(at: partial, to: folder)
        } catch let failure as Failure {
            try? fm.removeItem(at: partial)
            throw failure
        } catch {
            try? fm.removeItem(at: partial)
            if isReady { return }  // another clickwheel made it at the same time
            throw Failure(description: "clickwheel: cannot make the demo library: \(error.localizedDescription)")
        }
    }

    /// Synthesises one track to a WAV file, encodes and tags it with lame, removes the WAV.
    static func write(_ track: DemoTrack, into root: URL, lame: String) throws {
        let mp3 = root.appendingPathComponent(track.path)
        try FileManager.default.createDirectory(at: mp3.deletingLastPathComponent(), withIntermediateDirectories: true)
        let wav = mp3.deletingPathExtension().appendingPathExtension("wav")
        try DemoSynth.wav(track.notes, voice: track.voice).write(to: wav)
        defer { try? FileManager.default.removeItem(at: wav) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lame)
        process.arguments =
            ["--quiet", "-V", "4", "-m", "m", "--id3v2-only", "--id3v2-utf16"] + track.lameTags + [wav.path, mp3.path]
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let why = said.split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
            throw Failure(description: "clickwheel: lame could not encode \(track.path): \(why)")
        }
    }

    /// Removes `BASE.partial-PID` and `BASE.old-PID` folders whose process is gone (an interrupted run).
    private func removeAbandonedPartials(in parent: URL, base: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names {
            for prefix in ["\(base).partial-", "\(base).old-"] where name.hasPrefix(prefix) {
                guard let pid = pid_t(name.dropFirst(prefix.count)) else { continue }
                if kill(pid, 0) != 0, errno == ESRCH {
                    try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
                }
            }
        }
    }

    /// The first executable `name` on `PATH`, or nil.
    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
