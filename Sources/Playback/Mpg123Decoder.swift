import Foundation
import Mpg123

/// The `mpg123` decoder: one open MP3 through libmpg123 with GAPLESS and QUIET, signed 16-bit at the
/// file's own rate (the LAME/Info tag's delay and padding trimmed by libmpg123).
///
/// Thread rules: audio thread only (a libmpg123 handle belongs to one thread at a time). `init` opens
/// the file and decodes the first frame, so a file that is not MP3 fails here, not mid-playback.
///
/// A track keeps the format it opened with. Damage can forge a frame header of another format (another
/// rate or channel count) out of leftover frame data; libmpg123 then announces a "Frankenstein" format
/// change, decodes a frame of noise and changes back at the next real header. Such frames are dropped
/// like any other damage (`MPG123_NO_FRANKENSTEIN` is no help: it ends the stream there instead).
final class Mpg123Decoder: TrackDecoder {
    let track: AudioTrack
    let format: PCMFormat
    private let handle: Mpg123Handle
    private let fd: Int32
    /// Decode errors in a row without output; a file that keeps failing is given up.
    private var failures = 0
    static let maxFailures = 32
    /// True while libmpg123 decodes in another format than the track's (forged headers): output dropped.
    private var alien = false
    /// MPEG frames' worth of output dropped for being in another format (for the log).
    private(set) var droppedAlienReads = 0
    var skippedDamage: Int { droppedAlienReads }

    /// Opens `track`; with `soundCheck`, its ReplayGain is applied (`applyReplayGain`).
    init(_ track: AudioTrack, soundCheck: Bool = false) throws(PlaybackError) {
        self.track = track
        fd = (track.pathBytes + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else {
            throw PlaybackError("cannot open \(track.path): \(String(cString: strerror(errno)))")
        }
        do {
            handle = try Mpg123Handle(flags: [.quiet, .gapless])
            try handle.allowNativeRatesS16()
            try handle.allowUnlimitedResync()
            try handle.open(fd: fd)
            if soundCheck, let rg = track.replayGain { try handle.setVolume(rg.scale) }
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
    func read(into buffer: UnsafeMutableRawBufferPointer) -> DecodedChunk {
        let (bytes, status) = handle.read(into: buffer)
        switch status {
        case Mpg123Status.ok:
            failures = 0
            if alien {
                droppedAlienReads += 1
                return .data(bytes: 0)
            }
            return .data(bytes: bytes)
        case Mpg123Status.done:
            return .end(bytes: alien ? 0 : bytes)
        case Mpg123Status.newFormat:
            // The bytes returned with it are still in the format before the change.
            let valid = alien ? 0 : bytes
            if let f = try? handle.format() {
                alien = PCMFormat(sampleRate: f.sampleRate, channels: f.channels) != format
            }
            return .data(bytes: valid)
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

    /// Applies the track's ReplayGain (`on`) or unity gain to what is decoded from now on, in libmpg123's
    /// synthesis (`mpg123_volume`): no extra pass over the samples, and it clips like the decoder does.
    func applyReplayGain(_ on: Bool) {
        try? handle.setVolume(on ? track.replayGain?.scale ?? 1 : 1)
    }

    /// Length in samples per channel when known (`mpg123_length`).
    var length: Int64? { handle.length }
}
