import ClickWheelCore
import Library
import MPDProtocol

/// How the engine's and the library's refusals reach a client: as the `ACK` MPD answers in the same case,
/// its code and its words, so a client is told what MPD would tell it.
extension MPDError {
    /// The engine's refusal as MPD words it.
    init(_ error: ControlError) {
        switch error {
        case .badSongIndex: self = .argument("Bad song index")
        case .noSuchSong: self = .noExist("No such song")
        case .notPlaying: self = .playerSync("Not playing")
        case .noCurrentSong: self = .playerSync("No current song")
        case .positionTooLarge(let n): self = .argument("Number too large: \(n)")
        case .queueTooLarge: self = MPDError(.playlistMax, "Playlist is too large")
        case .noSuchScreen(let name, let known):
            self = .noExist("No such screen: \(name) (screens: \(known.joined(separator: " ")))")
        }
    }
}

/// Library errors become MPD's "system" error with the reason; stored-playlist refusals MPD's own.
func libraryCall<T>(_ body: () throws -> T) throws(MPDError) -> T {
    do {
        return try body()
    } catch let error as MPDError {
        throw error
    } catch let error as StoredPlaylists.Failure {
        switch error {
        case .badName: throw .argument("Bad playlist name")
        case .noSuchPlaylist: throw .noExist("No such playlist")
        case .exists: throw .exist("Playlist already exists")
        case .badIndex: throw .argument("Bad song index")
        case .readOnly: throw MPDError(.permission, "Read-only playlist (a file in the music folder)")
        case .smartPlaylist: throw MPDError(.permission, "Read-only playlist (a smart playlist the device computes)")
        case .tooLarge: throw MPDError(.playlistMax, "Stored playlist is too large")
        }
    } catch {
        throw MPDError.system("library: \(error)")
    }
}

extension MPDError {
    /// A streamed listing stopped early because its client is gone (`MPDResponseWriter.abandoned`),
    /// instead of formatting the rest of the library for nobody. No one reads this error.
    static var abandoned: MPDError { .system("the client is gone; the listing stopped") }
}
