import ArgumentParser
import ClickWheelConfig
import Foundation
import Library
import Logging

/// `clickwheel index`: index or rescan the music folder, print a summary, exit.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index (or incrementally rescan) the music folder into the library database, then exit.",
        discussion: """
            Unchanged files (same size and modification time) are not reopened; changed files are read again; \
            files that disappeared are removed, unless the same recording turned up under another path, which \
            keeps its play counts. Bad files are skipped, logged once and listed by --report.
            Exit status: 0 when the index was written (skipped files included), 1 when it could not be, \
            64 for a usage error.
            """)

    @Option(name: .long, help: ArgumentHelp("The configuration file (default /etc/clickwheel/clickwheel.yaml when it exists).", valueName: "FILE"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("The music folder (env CLICKWHEEL_MUSIC; default ~/Music).", valueName: "DIR"))
    var music: String?

    @Option(name: .long, help: ArgumentHelp("The library database (env CLICKWHEEL_DB; default $XDG_DATA_HOME/clickwheel/library.sqlite).", valueName: "FILE"))
    var db: String?

    @Flag(name: .long, help: "Index the generated demo library (made first if needed, as `run --demo` does) into its own database.")
    var demo = false

    @Flag(name: .long, help: "After the scan, list every skipped file and every file indexed with a problem, with the reason.")
    var report = false

    @Flag(name: .long, help: "Print the summary as one JSON object on stdout.")
    var json = false

    // `.unconditional`: `--threads -1` gets the range message, not "Missing value".
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Reading threads (default: the number of cores).", valueName: "N"))
    var threads: Int?

    /// Music folder and database from the flags, the environment, the configuration file, the defaults.
    func locations() throws -> (music: String, db: String, demo: Bool) {
        var flags: [String: String] = [:]
        if let music { flags["music"] = music }
        if let db { flags["db"] = db }
        if demo { flags["demo"] = "true" }
        let c = try Failure.configuration(explicit: config, flags: flags).config
        return (c.music, c.db, c.demo)
    }

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        var isDir: ObjCBool = false
        let (folder, _, demo) = try locations()
        guard demo || (FileManager.default.fileExists(atPath: folder, isDirectory: &isDir) && isDir.boolValue) else {
            throw ValidationError("the music folder '\(folder)' does not exist or is not a folder")
        }
    }

    func run() throws {
        let (folder, dbPath, demo) = try locations()
        if demo { try DemoLibrary.prepareOrExit(folder: folder) }
        let logger = Logging.make("clickwheel.index")
        let progress = ProgressPrinter(isTTY: isatty(STDERR_FILENO) == 1 && !json)
        do {
            let pool = try LibraryDatabase.open(at: dbPath)
            let scanner = LibraryScanner(musicFolder: folder, database: pool, logger: logger, threads: threads)
            let summary = try scanner.run(progress: progress.update)
            progress.finish()
            let problems = report ? try ScanReport.lines(pool) : []
            if json {
                try printJSON(summary, problems: report ? problems : nil)
            } else {
                print(
                    "indexed \(folder): \(summary.tracks) tracks, \(summary.playlists) playlists "
                        + "(added \(summary.added), updated \(summary.updated), removed \(summary.removed), "
                        + "moved \(summary.moved), skipped \(summary.skipped)) in "
                        + String(format: "%.2f", summary.seconds) + " s")
                for line in problems {
                    print("\(line.path)\t\(line.skipped ? "skipped" : "indexed")\t\(line.kind)\t\(line.reason)")
                }
            }
        } catch {
            progress.finish()
            throw Failure.exit("cannot index into \(dbPath): \(error)")
        }
    }

    private func printJSON(_ summary: ScanSummary, problems: [ScanReport.Line]?) throws {
        struct Output: Encodable {
            var added, updated, removed, moved, skipped, unchanged, tracks, playlists: Int
            var seconds: Double
            var problems: [ScanReport.Line]?
        }
        let out = Output(
            added: summary.added, updated: summary.updated, removed: summary.removed, moved: summary.moved,
            skipped: summary.skipped, unchanged: summary.unchanged, tracks: summary.tracks,
            playlists: summary.playlists, seconds: (summary.seconds * 1000).rounded() / 1000, problems: problems)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(out), as: UTF8.self))
    }
}
