import Foundation
import NIOCore
import Podcasts
import Synchronization
import Testing

/// EpisodeDownloader against a real HTTP server on 127.0.0.1 (Resources/podcast_server.py): whole files,
/// resumption after a dropped connection and after a cancelled task, the server that ignores Range, an HTML
/// page instead of audio, 404, the cap, and the scheduler's bound.
@Suite(.serialized) struct EpisodeDownloaderTests {
    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func wholeDownloadIsRenamedIntoPlace() async throws {
        try await FeedFetcherTests.withServer { server, http in
            let audio = audioBytes(3 << 20)
            try server.write("ep.mp3", audio)
            let folder = try scratchFolder() + "/Podcasts/Show"
            let seen = Mutex<[EpisodeDownloader.Progress]>([])
            let outcome = try await EpisodeDownloader(http: http, reserveBytes: 0).download(
                server.url("r302/files/ep.mp3"), to: folder, name: "2024-01-01 Ep.mp3", expectedBytes: Int64(audio.count)
            ) { progress in seen.withLock { $0.append(progress) } }
            #expect(outcome.bytes == Int64(audio.count) && outcome.resumedFrom == 0 && !outcome.alreadyPresent)
            #expect(try Data(contentsOf: URL(filePath: outcome.path)) == audio)
            #expect(Self.files(folder) == ["2024-01-01 Ep.mp3"], "no .part left")
            let progress = seen.withLock { $0 }
            #expect(progress.last == .init(received: Int64(audio.count), total: Int64(audio.count)))
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.received <= $1.received })
            // Again: already there, nothing fetched.
            let before = try await server.requests(http).count
            let again = try await EpisodeDownloader(http: http).download(server.url("files/ep.mp3"), to: folder, name: "2024-01-01 Ep.mp3")
            #expect(again.alreadyPresent)
            #expect(try await server.requests(http).count == before)
        }
    }

    @Test func droppedConnectionResumesWithRange() async throws {
        try await FeedFetcherTests.withServer { server, http in
            let audio = audioBytes(2 << 20, seed: 3)
            try server.write("ep.mp3", audio)
            let folder = try scratchFolder()
            let downloader = EpisodeDownloader(http: http, reserveBytes: 0)
            do throws(EpisodeDownloader.Failure) {
                _ = try await downloader.download(server.url("drop/ep.mp3"), to: folder, name: "ep.mp3")
                Issue.record("the first attempt is cut off")
            } catch {
                switch error {
                case .fetch(_, partKept: true), .truncated: break
                default: Issue.record("dropped: \(error)")
                }
            }
            #expect(Self.files(folder) == [".ep.mp3.part"])
            let part = try Data(contentsOf: URL(filePath: folder + "/.ep.mp3.part"))
            #expect(part.count > 0 && part == audio.prefix(part.count), "what arrived is kept, in order")

            let outcome = try await downloader.download(server.url("drop/ep.mp3"), to: folder, name: "ep.mp3")
            #expect(outcome.resumedFrom == Int64(part.count))
            #expect(try Data(contentsOf: URL(filePath: outcome.path)) == audio)
            #expect(Self.files(folder) == ["ep.mp3"])
            let last = try await server.requests(http).last
            #expect(last?.status == 206 && last?.range == "bytes=\(part.count)-" && last?.sent == audio.count - part.count)
        }
    }

    @Test func cancelledTaskLeavesAPartThatIsResumed() async throws {
        try await FeedFetcherTests.withServer { server, http in
            let audio = audioBytes(1 << 20, seed: 5)
            try server.write("ep.mp3", audio)
            let folder = try scratchFolder()
            let downloader = EpisodeDownloader(http: http, reserveBytes: 0)
            // The server sends 100,000 bytes then stalls; once they are in, the task is cancelled.
            let (arrived, arrivedSink) = AsyncStream<Void>.makeStream()
            let task = Task {
                try await downloader.download(server.url("stall/ep.mp3?bytes=100000"), to: folder, name: "ep.mp3") { progress in
                    if progress.received >= 100_000 { arrivedSink.yield() }
                }
            }
            for await _ in arrived { break }
            task.cancel()
            let result = await task.result
            guard case .failure(let error) = result, case .fetch(.cancelled, partKept: true) = error as? EpisodeDownloader.Failure else {
                Issue.record("cancelled: \(result)")
                return
            }
            #expect(Self.files(folder) == [".ep.mp3.part"], "no final file")
            #expect(try Data(contentsOf: URL(filePath: folder + "/.ep.mp3.part")) == audio.prefix(100_000))

            let outcome = try await downloader.download(server.url("files/ep.mp3"), to: folder, name: "ep.mp3")
            #expect(outcome.resumedFrom == 100_000)
            #expect(try Data(contentsOf: URL(filePath: outcome.path)) == audio)
        }
    }

    @Test func serverIgnoringRangeStartsOver() async throws {
        try await FeedFetcherTests.withServer { server, http in
            let audio = audioBytes(300_000, seed: 9)
            try server.write("ep.mp3", audio)
            let folder = try scratchFolder()
            try Data(repeating: 0xEE, count: 5000).write(to: URL(filePath: folder + "/.ep.mp3.part"))
            let outcome = try await EpisodeDownloader(http: http, reserveBytes: 0).download(server.url("norange/ep.mp3"), to: folder, name: "ep.mp3")
            #expect(outcome.resumedFrom == 0)
            #expect(try Data(contentsOf: URL(filePath: outcome.path)) == audio)
        }
    }

    @Test func htmlInsteadOfAudioAnd404LeaveNoFile() async throws {
        try await FeedFetcherTests.withServer { server, http in
            let folder = try scratchFolder()
            let downloader = EpisodeDownloader(http: http, reserveBytes: 0)
            await #expect(throws: EpisodeDownloader.Failure.notAudio(contentType: "text/html")) {
                try await downloader.download(server.url("html/ep.mp3"), to: folder, name: "ep.mp3")
            }
            try Data([1, 2, 3]).write(to: URL(filePath: folder + "/.gone.mp3.part"))
            await #expect(throws: EpisodeDownloader.Failure.fetch(.httpStatus(404, "Not Found"), partKept: false)) {
                try await downloader.download(server.url("files/gone.mp3"), to: folder, name: "gone.mp3")
            }
            #expect(Self.files(folder) == [])
        }
    }

    @Test func capAndFreeSpace() async throws {
        try await FeedFetcherTests.withServer { server, http in
            try server.write("ep.mp3", audioBytes(200_000))
            let folder = try scratchFolder()
            let downloader = EpisodeDownloader(http: http, reserveBytes: 0)
            await #expect(throws: EpisodeDownloader.Failure.tooLarge(bytes: 200_000, cap: 100_000)) {
                try await downloader.download(server.url("files/ep.mp3"), to: folder, name: "ep.mp3", cap: 100_000)
            }
            await #expect(throws: EpisodeDownloader.Failure.tooLarge(bytes: 1 << 40, cap: 1 << 30)) {
                try await downloader.download(server.url("files/ep.mp3"), to: folder, name: "ep.mp3", expectedBytes: 1 << 40)
            }
            // A reserve larger than any disk: refused before a byte is written.
            do throws(EpisodeDownloader.Failure) {
                _ = try await EpisodeDownloader(http: http, reserveBytes: Int64.max / 2).download(server.url("files/ep.mp3"), to: folder, name: "ep.mp3")
                Issue.record("no space check")
            } catch {
                guard case .noSpace = error else {
                    Issue.record("\(error)")
                    return
                }
            }
            #expect(Self.files(folder) == [])
        }
    }

    @Test func schedulerRunsAtMostTwo() async throws {
        let scheduler = DownloadScheduler(limit: 2)
        let (started, startedSink) = AsyncStream<Int>.makeStream()
        let gate = Gate()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<6 {
                group.addTask {
                    try await scheduler.run {
                        startedSink.yield(n)
                        await gate.wait()
                        return n
                    }
                }
            }
            var iterator = started.makeAsyncIterator()
            _ = await iterator.next()
            _ = await iterator.next()
            while await scheduler.waiting < 4 { await Task.yield() }
            #expect(await scheduler.running == 2)
            await gate.open()
            var done: [Int] = []
            for try await n in group { done.append(n) }
            #expect(done.sorted() == Array(0..<6))
        }
        #expect(await scheduler.peak == 2)
        #expect(await scheduler.running == 0)
    }

    @Test func cancelledWaiterLeavesTheQueue() async throws {
        let scheduler = DownloadScheduler(limit: 1)
        let gate = Gate()
        let holder = Task { try await scheduler.run { await gate.wait() } }
        while await scheduler.running < 1 { await Task.yield() }
        let waiter = Task { try await scheduler.run { 1 } }
        while await scheduler.waiting < 1 { await Task.yield() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(await scheduler.waiting == 0)
        await gate.open()
        try await holder.value
    }
}

/// Holds tasks until opened.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
