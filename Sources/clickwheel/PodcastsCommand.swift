import ArgumentParser
import Foundation
import Library
import Podcasts

/// `clickwheel podcasts import|export FILE`: the subscriptions in OPML, the format podcast apps trade
/// them in. Works on the library database directly (beside a running service: SQLite's WAL lets both
/// write); imported feeds are fetched at the service's next look, within half a minute.
struct PodcastsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "podcasts",
        abstract: "Import or export the podcast subscriptions as OPML.",
        subcommands: [Import.self, Export.self])

    /// The options both share: where the configuration and the database are.
    struct Location: ParsableArguments {
        @Option(name: .long, help: ArgumentHelp("The configuration file (default /etc/clickwheel/clickwheel.yaml when it exists).", valueName: "FILE"))
        var config: String?

        @Option(name: .long, help: ArgumentHelp("The library database (env CLICKWHEEL_DB; default $XDG_DATA_HOME/clickwheel/library.sqlite).", valueName: "FILE"))
        var db: String?

        func store() throws -> SubscriptionStore {
            var flags: [String: String] = [:]
            if let db { flags["db"] = db }
            let path = try Failure.configuration(explicit: config, flags: flags).config.db
            do {
                return SubscriptionStore(try LibraryDatabase.open(at: path))
            } catch {
                throw Failure.exit(command: "clickwheel podcasts", "cannot open the library \(path): \(error)")
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Subscribe to every feed an OPML file lists (those already subscribed are kept as they are).",
            discussion: "Prints one line per feed: subscribed, already subscribed, or why not. Exit status 1 when the file cannot be read.")

        @OptionGroup var location: Location

        @Argument(help: ArgumentHelp("The OPML file.", valueName: "FILE"))
        var file: String

        func run() throws {
            let store = try location.store()
            let feeds: [OPML.Subscription]
            do {
                feeds = try OPML.parse(try Data(contentsOf: URL(fileURLWithPath: file)))
            } catch {
                throw Failure.exit(command: "clickwheel podcasts import", "\(file): \(error)")
            }
            let now = Int64(Date().timeIntervalSince1970)
            var added = 0
            for feed in feeds {
                do {
                    let (id, new) = try store.add(feed.feedURL, now: now)
                    if new { added += 1 }
                    print("\(new ? "subscribed" : "already subscribed")\t\(id)\t\(feed.feedURL)")
                } catch {
                    print("not subscribed\t-\t\(feed.feedURL)\t\(error)")
                }
            }
            print("\(added) of \(feeds.count) feeds subscribed")
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every subscription to an OPML file (`-`: standard output).")

        @OptionGroup var location: Location

        @Argument(help: ArgumentHelp("The OPML file to write.", valueName: "FILE"))
        var file: String

        func run() throws {
            let store = try location.store()
            let text: String
            do {
                text = OPML.export(try store.all().map { OPML.Subscription(feedURL: $0.url, title: $0.title ?? "") })
            } catch {
                throw Failure.exit(command: "clickwheel podcasts export", "cannot read the subscriptions: \(error)")
            }
            if file == "-" {
                print(text, terminator: "")
                return
            }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
            } catch {
                throw Failure.exit(command: "clickwheel podcasts export", "cannot write \(file): \(error)")
            }
        }
    }
}
