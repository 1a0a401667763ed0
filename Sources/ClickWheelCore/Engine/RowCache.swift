/// A small page cache over `LibraryReading`: rows are fetched by the page, never whole lists.
///
/// Holds at most `capacity` pages of `pageSize` rows and the counts of the lists seen; the least
/// recently used page goes first. Dropped whole when the library changes.
struct RowCache: Sendable {
    private struct Key: Hashable, Sendable {
        var list: BrowseList
        var page: Int
    }

    let pageSize: Int
    let capacity: Int
    private var pages: [Key: [BrowseRow]] = [:]
    private var recency: [Key] = []
    private var counts: [BrowseList: Int] = [:]
    /// The last error the library threw, shown instead of an empty list.
    private(set) var lastError: String?
    /// How many pages were read from the library (for tests and the benchmark).
    private(set) var fetches = 0

    init(pageSize: Int = 32, capacity: Int = 8) {
        self.pageSize = pageSize
        self.capacity = capacity
    }

    /// The number of rows of `list` (0 when the library fails).
    mutating func count(of list: BrowseList, in library: any LibraryReading) -> Int {
        if let n = counts[list] { return n }
        do {
            let n = try library.count(of: list)
            counts[list] = n
            lastError = nil
            return n
        } catch {
            lastError = "\(error)"
            return 0
        }
    }

    /// Row `index` of `list`, nil when out of range or when the library fails.
    mutating func row(_ index: Int, of list: BrowseList, in library: any LibraryReading) -> BrowseRow? {
        guard index >= 0 else { return nil }
        let key = Key(list: list, page: index / pageSize)
        let offset = index % pageSize
        if let rows = pages[key] {
            touch(key)
            return offset < rows.count ? rows[offset] : nil
        }
        let start = key.page * pageSize
        do {
            let rows = try library.rows(of: list, in: start..<(start + pageSize))
            fetches += 1
            pages[key] = rows
            recency.append(key)
            if recency.count > capacity { pages[recency.removeFirst()] = nil }
            return offset < rows.count ? rows[offset] : nil
        } catch {
            lastError = "\(error)"
            return nil
        }
    }

    /// Forgets everything (the library changed).
    mutating func removeAll() {
        pages = [:]
        recency = []
        counts = [:]
    }

    private mutating func touch(_ key: Key) {
        if let i = recency.firstIndex(of: key), i != recency.count - 1 {
            recency.remove(at: i)
            recency.append(key)
        }
    }
}
