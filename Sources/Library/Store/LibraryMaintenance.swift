public import GRDB

/// Whole-library upkeep outside a scan.
public enum LibraryMaintenance {
    /// Recomputes every menu position (`ord` columns) and drops rows no track refers to; a scan does this
    /// by itself, this is for databases changed by other means (imports, benchmarks).
    public static func renumber(_ db: any DatabaseWriter) throws {
        try db.write { db in
            var writer = try LibraryWriter(db)
            try writer.pruneOrphans(db)
            try LibraryWriter.renumber(db)
        }
    }
}
