/// The iPod's smart playlists: lists computed live from what the listener did (plays, skips,
/// ratings) and when songs came in. They sit in Music → Playlists after On-The-Go, and MPD clients
/// see them as read-only stored playlists under these titles.
public enum SmartPlaylist: String, CaseIterable, Hashable, Sendable {
    /// The 25 songs played most often (ties: the one played last first).
    case mostPlayed
    /// The last 25 songs played, the latest first.
    case recentlyPlayed
    /// Songs rated 4 stars and up, by rating then plays.
    case topRated
    /// The newest songs of the library (`recentlyAddedLimit`), the newest first.
    case recentlyAdded
    /// Songs never played through, in Songs order.
    case neverPlayed

    /// How many songs the short lists hold (Top 25 Most Played, Recently Played).
    public static let shortLength = 25
    /// How many songs Recently Added holds.
    public static let recentlyAddedLimit = 100

    /// The name on the device and over MPD (`listplaylists`, `load`).
    public var title: String {
        switch self {
        case .mostPlayed: "Top 25 Most Played"
        case .recentlyPlayed: "Recently Played"
        case .topRated: "My Top Rated"
        case .recentlyAdded: "Recently Added"
        case .neverPlayed: "Never Played"
        }
    }

    /// The smart playlist called `title`, nil for any other name.
    public static func named(_ title: String) -> SmartPlaylist? {
        allCases.first { $0.title == title }
    }
}

/// Ratings as the device keeps them: 0…10, two per star (the scale MPD clients use for the
/// `rating` sticker), so a client's half star survives; the wheel moves by whole stars.
public enum Rating {
    /// The highest rating (5 stars).
    public static let maximum = 10
    /// The least rating My Top Rated lists (4 stars).
    public static let topRatedMinimum = 8

    /// `rating` moved `delta` whole stars: up from a half star goes to the next whole star, down to
    /// the whole star below (3½ → 4 up, → 3 down); clamped to 0…5 stars.
    public static func stepped(_ rating: Int, by delta: Int) -> Int {
        guard delta != 0 else { return rating }
        let r = max(0, min(maximum, rating))
        let stars = delta > 0 ? r / 2 + delta : (r + 1) / 2 + delta
        return max(0, min(maximum, stars * 2))
    }

    /// A client's value for the `rating` sticker: a number 0…10, rounded to the nearest half star
    /// ("7" is 3½ stars, "7.6" becomes 8); nil when it is not a number in that range.
    public static func parse(_ text: String) -> Int? {
        guard let value = Double(text.trimmingCharacters(in: " ")), value.isFinite, value >= 0, value <= Double(maximum)
        else { return nil }
        return Int(value.rounded(.toNearestOrAwayFromZero))
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var s = self[...]
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return s
    }
}
