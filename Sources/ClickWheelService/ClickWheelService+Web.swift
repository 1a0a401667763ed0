import ClickWheelConfig
import ClickWheelCore
import ControlServer
import Devices
import Dispatch
import Foundation
import GRDB
import Library
import Logging
import MPDProtocol
import NIOCore
import Synchronization
import WebRemote

/// The web remote's part of the service: the remote made from the configuration, its input into the
/// engine loop, artwork by track id from the library, and Now Playing pushed when playback changes.
extension ClickWheelService {
    /// The web remote for `c.web`, listening, or nil when it is off; its Podcasts panel works through
    /// `podcasts`. In the demo a taken port is no failure: the next nine are tried, and when all are taken
    /// the demo runs without it (one log line).
    static func webRemote(
        _ c: ServiceConfig, pool: DatabasePool, loop: LateLoop, podcasts: WebPodcastLink, eventLoop: any EventLoop,
        logger: Logger
    ) throws(StartupFailure) -> WebRemote? {
        guard let address = c.web else { return nil }
        guard
            var options = WebRemoteOptions(
                address: address, password: c.password, geometry: c.lcd, charset: .utf8)
        else { throw StartupFailure(description: "web: '\(address)' is not HOST:PORT") }
        let catalog = Catalog(pool)
        let music = c.music
        let tries = c.demo ? 10 : 1
        for attempt in 0..<tries {
            let remote = WebRemote(
                options: options, eventLoop: eventLoop, logger: logger, podcasts: podcasts,
                input: { input in
                    let now = MonotonicClock.now()
                    switch input {
                    case .wheel(let steps): loop.post(.wheel(steps, at: now))
                    case .button(let b, let phase): loop.post(.button(b, phase, at: now))
                    }
                },
                artwork: { id in Self.artwork(id, catalog: catalog, music: music, logger: logger) })
            do {
                try remote.start()
                return remote
            } catch {
                remote.stop()
                if attempt + 1 < tries, options.port != 0 {
                    options.port += 1
                    continue
                }
                if c.demo {
                    logger.warning("web: no free port from \(address) on: the demo runs without the web remote")
                    return nil
                }
                throw StartupFailure(description: "cannot open the web remote on \(address): \(error)")
            }
        }
        return nil
    }

    /// A track's picture: the one embedded in the file (front cover first), else the folder's cover
    /// file, as `readpicture` and `albumart` find them. Blocking: called on the remote's artwork queue.
    static func artwork(_ id: Int64, catalog: Catalog, music: String, logger: Logger) -> WebArtwork? {
        do {
            guard let song = try catalog.songs(ids: [id]).first, let art = try catalog.artwork(path: song.path) else {
                return nil
            }
            let file = Array(music.utf8) + [UInt8(ascii: "/")] + art.file
            if let p = art.picture, let bytes = read(file, offset: p.offset, size: p.size) {
                return WebArtwork(mime: p.mime, bytes: bytes)
            }
            if art.picture == nil, let encoded = EmbeddedPictures.read(path: file) {
                return WebArtwork(mime: encoded.mime, bytes: encoded.bytes)
            }
            guard let cover = ControlCommands.coverFile(musicFolder: music, songFile: art.file),
                let bytes = read(cover, offset: 0, size: 8 << 20)
            else { return nil }
            let name = String(decoding: cover, as: UTF8.self).lowercased()
            let mime = name.hasSuffix(".png") ? "image/png" : name.hasSuffix(".webp") ? "image/webp" : "image/jpeg"
            return WebArtwork(mime: mime, bytes: bytes)
        } catch {
            logger.error("web: artwork of track \(id): \(error)")
            return nil
        }
    }

    /// Up to `size` bytes of the file at path bytes `path` from `offset`; nil when it cannot be read.
    private static func read(_ path: [UInt8], offset: Int64, size: Int) -> [UInt8]? {
        let fd = (path + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.seek(toOffset: UInt64(offset))
            return try handle.read(upToCount: size).map { Array($0) }
        } catch {
            return nil
        }
    }
}

/// The engine loop for what is made before it (the web remote exists before the display the loop draws
/// on, since it is part of that display). Set once, right after the loop is made.
final class LateLoop: Sendable {
    private let loop = Mutex<EngineLoop?>(nil)

    func set(_ l: EngineLoop) { loop.withLock { $0 = l } }

    func post(_ event: Event) { loop.withLock { $0 }?.post(event) }
}

/// Keeps the web remote's Now Playing current: after every change of playback, queue or volume (the
/// engine loop's idle notifications) it reads the loop's snapshot and the current song on a queue of
/// its own (a database read) and hands it to the remote, and again every second while playing, so the
/// page's clock follows the service's (which stands when no output plays) instead of running on by
/// itself. Changes that come while one is read are folded into the next read.
final class WebNowPlayingFeed: Sendable {
    let remote: WebRemote
    let loop: EngineLoop
    let catalog: Catalog
    let music: String
    private let queue = DispatchQueue(label: "clickwheel.web.nowplaying")
    private let pending = Mutex(false)
    /// A read is due in a second (while playing): not asked for again until it ran.
    private let ticking = Mutex(false)
    /// The last song read (its id and record), so a volume change does not read the database again.
    private let cached = Mutex<(id: Int64, song: SongRecord?, hasArt: Bool)?>(nil)

    init(remote: WebRemote, loop: EngineLoop, catalog: Catalog, music: String) {
        self.remote = remote
        self.loop = loop
        self.catalog = catalog
        self.music = music
    }

    func changed(_ subsystems: MPDIdleSubsystems) {
        guard !subsystems.isDisjoint(with: [.player, .mixer, .playlist, .database]) else { return }
        let already = pending.withLock { p in defer { p = true }; return p }
        guard !already else { return }
        queue.async { [self] in
            pending.withLock { $0 = false }
            publish()
        }
    }

    /// Reads and hands over Now Playing (on `queue`); while playing, again in a second.
    private func publish() {
        let np = read()
        remote.nowPlaying(np)
        guard np.state == .play, !ticking.withLock({ t in defer { t = true }; return t }) else { return }
        queue.asyncAfter(deadline: .now() + 1) { [self] in
            ticking.withLock { $0 = false }
            publish()
        }
    }

    private func read() -> WebNowPlaying {
        let s = loop.snapshot()
        let state: WebNowPlaying.State = s.status == .playing ? .play : s.status == .paused ? .pause : .stop
        guard let pos = s.currentPosition else { return WebNowPlaying(state: .stop, volume: s.volume) }
        let id = s.queue[pos].track
        var entry = cached.withLock { $0 }
        if entry?.id != id {
            let song = try? catalog.songs(ids: [id]).first
            var hasArt = false
            if let song, let art = try? catalog.artwork(path: song.path) {
                hasArt = art.picture != nil || ControlCommands.coverFile(musicFolder: music, songFile: art.file) != nil
                    || EmbeddedPictures.read(path: Array(music.utf8) + [UInt8(ascii: "/")] + art.file) != nil
            }
            entry = (id, song, hasArt)
            cached.withLock { $0 = entry }
        }
        let song = entry?.song
        return WebNowPlaying(
            state: state, title: song?.title ?? "", artist: song?.artists.joined(separator: ", ") ?? "",
            album: song?.album ?? "", elapsedMS: s.elapsedMS, durationMS: song?.durationMS ?? 0, volume: s.volume,
            trackID: id, hasArtwork: entry?.hasArt ?? false)
    }
}

/// The web remote's Podcasts panel, done by the same `PodcastControl` the socket's `podcast…` commands
/// use (no podcast logic of its own). Thread rules: `PodcastControl`'s (any thread; the remote calls it
/// on its podcast queue).
struct WebPodcastLink: WebPodcastActions {
    let control: any PodcastControl

    func list() throws -> [WebPodcastFeed] {
        try control.list().map { s in
            WebPodcastFeed(
                id: s.id, url: s.url, title: s.title.flatMap { $0.isEmpty ? nil : $0 }, episodes: s.episodes, new: s.new,
                updated: s.updatedAt, error: s.error)
        }
    }

    func add(_ url: String) throws { _ = try control.add(url.trimmingCharacters(in: .whitespacesAndNewlines)) }
    func delete(_ id: Int64) throws { try control.delete(String(id)) }
    func update(_ id: Int64?) throws { try control.update(id.map { String($0) }) }
}
