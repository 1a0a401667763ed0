import MPDProtocol

/// Paths clients name: relative to the music folder, never outside it.
enum MusicPath {
    /// "" for the root; refuses `..`, `.` components and absolute paths outside the folder with MPD's
    /// "No such directory" (code 50) — MPD 0.23 itself lists `..` and `/etc` for `listfiles`; we do not.
    static func normalize(_ argument: MPDArgument?, command: String) throws(MPDError) -> String {
        guard let argument else { return "" }
        guard let text = argument.validString else { throw .noExist("No such directory") }
        let parts = text.split(separator: "/", omittingEmptySubsequences: true)
        if text.hasPrefix("/") && !parts.isEmpty { throw .noExist("No such directory") }
        guard !parts.contains(where: { $0 == ".." || $0 == "." }) else { throw .noExist("No such directory") }
        return parts.joined(separator: "/")
    }
}
