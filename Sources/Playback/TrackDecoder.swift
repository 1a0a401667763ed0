import Foundation
import Mpg123

/// One open MP3 for playback: libmpg123 with GAPLESS and QUIET, signed 16-bit at the file's own rate.
///
/// Thread rules: audio thread only (a libmpg123 handle belongs to one thread at a time). `init` opens
/// the file and decodes the first frame, so a file that is not MP3 fails here, not mid-playback.
final class TrackDecoder {
    let track: AudioTrack
    private(set) var format: PCMFormat
    private let handle: Mpg123Handle
    private let fd: Int32
    /// Decode errors in a row without output; a file that keeps failing is given up.
    private var failures = 0
    static let maxFailures = 32

    /// What one `read` produced.
    enum Chunk: Equatable {
        /// `bytes` of PCM in the current format.
        case data(bytes: Int)
        /// `bytes` of PCM in the old format, then the stream changed format (see `format`).
        case newFormat(bytes: Int)
        /// `bytes` of PCM, then the end of the track.
        case end(bytes: Int)
        /// The file cannot be decoded any further.
        case failed(String)
    }

    init(_ track: AudioTrack) throws(PlaybackError) {
        self.track = track
        fd = open(track.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PlaybackError("cannot open \(track.path): \(String(cString: strerror(errno)))")
        }
        do {
            handle = try Mpg123Handle(flags: [.quiet, .gapless])
            try handle.allowNativeRatesS16()
            try handle.allowUnlimitedResync()
            try handle.open(fd: fd)
            let f = try handle.format()
            format = PCMFormat(sampleRate: f.sampleRate, channels: f.channels)
        } catch {
            close(fd)
            throw PlaybackError("\(track.path) is not playable MP3 (\(error))")
        }
    }

    deinit {
        handle.closeStream()
        close(fd)
    }

    /// Decodes up to `buffer.count` bytes (whole frames) into `buffer` (`mpg123_read`). Corrupt frames are
    /// skipped by libmpg123's resync; a run of errors without output ends the track as `.failed`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Chunk {
        let (bytes, status) = handle.read(into: buffer)
        switch status {
        case Mpg123Status.ok:
            failures = 0
            return .data(bytes: bytes)
        case Mpg123Status.done:
            return .end(bytes: bytes)
        case Mpg123Status.newFormat:
            failures = 0
            if let f = try? handle.format() { format = PCMFormat(sampleRate: f.sampleRate, channels: f.channels) }
            return .newFormat(bytes: bytes)
        default:
            failures += 1
            if bytes > 0 || failures < Self.maxFailures { return .data(bytes: bytes) }
            return .failed("\(track.path): \(handle.lastError)")
        }
    }

    /// Moves to `sample` (per channel, gapless-trimmed; `mpg123_seek`), clamped to the track.
    func seek(toSample sample: Int64) throws(PlaybackError) {
        do {
            try handle.seek(toSample: max(0, sample))
        } catch {
            throw PlaybackError("seek in \(track.path) failed (\(error))")
        }
    }

    /// Length in samples per channel when known (`mpg123_length`).
    var length: Int64? { handle.length }
}

/// A playback failure worth a log line: the file, and what went wrong.
public struct PlaybackError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
