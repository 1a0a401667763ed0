import ClickWheelCore
import Foundation
public import GRDB

/// Opens the library's SQLite file (WAL, foreign keys on) and brings its schema up to date.
///
/// The schema comes from the migrations built into the binary (`EmbeddedMigrations`), applied in order
/// by GRDB's `DatabaseMigrator`, each in its own transaction, so an interrupted upgrade leaves the
/// previous schema intact.
public enum LibraryDatabase {
    /// Opens (creating it and its folder if needed) the database at `path` as a WAL `DatabasePool`.
    public static func open(at path: String) throws -> DatabasePool {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            // NORMAL is durable across application crashes in WAL mode and fast; a power cut may lose the
            // last transactions but never corrupts the file.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            db.add(function: foldFunction)
        }
        let pool = try DatabasePool(path: path, configuration: config)
        try migrator.migrate(pool)
        return pool
    }

    /// Opens an in-memory-like private database queue with the same schema (tests, benchmarks).
    public static func openQueue(at path: String) throws -> DatabaseQueue {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in db.add(function: foldFunction) }
        let queue = try DatabaseQueue(path: path, configuration: config)
        try migrator.migrate(queue)
        return queue
    }

    /// `cw_fold(text)`: `SortKey.fold` in SQL, for search.
    static let foldFunction = DatabaseFunction("cw_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(SortKey.fold)
    }

    /// The built-in migrations, by name, in order.
    public static var migrations: [(name: String, sql: String)] { EmbeddedMigrations.all }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        for (name, sql) in EmbeddedMigrations.all {
            m.registerMigration(name) { db in try db.execute(sql: sql) }
        }
        return m
    }
}
