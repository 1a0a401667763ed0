/// Reading a track's sample table (`stbl`): its totals for an audio track, and the time, file offset and
/// size of each of the first few samples for a chapter track.
///
/// The tables are read through cursors in one pass each, never copied into arrays: a count field that
/// lies is bounded by the bytes actually there (a table of 8-byte entries in a 64 MiB `moov` has at most
/// 8 Mi of them), and a sum that overflows is a damaged file, not a trap.
struct MP4SampleTable {
    let stbl: MP4Atom

    /// One sample of a chapter track: its start in media timescale units, and where its bytes lie.
    struct Sample: Equatable {
        var start: Int64
        var offset: Int
        var size: Int
    }

    /// The number of samples and their total duration in media timescale units (`stts`).
    func timeToSampleTotals() throws(FormatError) -> (count: Int64, duration: Int64) {
        guard var c = stbl.child("stts")?.body, let entries = c.u32be() else {
            throw FormatError("damaged", "the audio track has no time-to-sample table (stts)")
        }
        var count: Int64 = 0
        var duration: Int64 = 0
        for _ in 0..<min(Int(entries), c.remaining / 8) {
            guard let n = c.u32be(), let delta = c.u32be() else { break }
            let (product, o1) = Int64(n).multipliedReportingOverflow(by: Int64(delta))
            let (sum, o2) = duration.addingReportingOverflow(product)
            guard !o1, !o2 else { throw FormatError("damaged", "the time-to-sample table (stts) overflows") }
            duration = sum
            count += Int64(n)
        }
        return (count, duration)
    }

    /// The number of samples and their total size in bytes (`stsz`); nil without one (a compact `stz2`).
    func sizeTotals() -> (count: Int64, bytes: Int64)? {
        guard var c = stbl.child("stsz")?.body, let fixed = c.u32be(), let count = c.u32be() else { return nil }
        if fixed != 0 {
            let (bytes, overflow) = Int64(count).multipliedReportingOverflow(by: Int64(fixed))
            return overflow ? nil : (Int64(count), bytes)
        }
        var bytes: Int64 = 0
        let present = min(Int(count), c.remaining / 4)
        for _ in 0..<present { bytes += Int64(c.u32be() ?? 0) }
        return (Int64(present), bytes)
    }

    /// The first `limit` samples: start times from `stts`, sizes from `stsz`, chunk offsets from `stco` or
    /// `co64`, samples per chunk from `stsc`. Stops early where a table runs out.
    func samples(limit: Int) -> [Sample] {
        guard var times = stbl.child("stts")?.body, let timeEntries = times.u32be(),
            var sizes = stbl.child("stsz")?.body, let fixedSize = sizes.u32be(), let sizeCount = sizes.u32be(),
            var runs = stbl.child("stsc")?.body, let runCount = runs.u32be()
        else { return [] }
        let wide = stbl.child("co64") != nil
        guard var chunks = (stbl.child("stco") ?? stbl.child("co64"))?.body, let chunkCount = chunks.u32be() else {
            return []
        }
        let wanted = min(limit, Int(sizeCount))
        var result: [Sample] = []
        result.reserveCapacity(min(wanted, 64))

        var timeLeft = 0  // samples left in the current stts entry
        var delta: Int64 = 0
        var timeEntriesLeft = Int(timeEntries)
        var start: Int64 = 0
        var run = (firstChunk: UInt32(0), perChunk: UInt32(0))
        var nextRun = runCount > 0 ? readRun(&runs) : nil
        var runsLeft = Int(runCount) - 1

        var chunk = 0
        while result.count < wanted, chunk < Int(chunkCount) {
            chunk += 1
            guard let chunkOffset = wide ? chunks.u64be() : chunks.u32be().map(UInt64.init),
                var offset = Int(exactly: chunkOffset), offset < 1 << 62  // past any file: a lie
            else { break }
            while let next = nextRun, Int(next.firstChunk) <= chunk {
                run = next
                nextRun = runsLeft > 0 ? readRun(&runs) : nil
                runsLeft -= 1
            }
            for _ in 0..<min(Int(run.perChunk), wanted - result.count) {
                while timeLeft == 0 && timeEntriesLeft > 0 {
                    guard let n = times.u32be(), let d = times.u32be() else { return result }
                    timeLeft = Int(n)
                    delta = Int64(d)
                    timeEntriesLeft -= 1
                }
                guard timeLeft > 0, let size = fixedSize != 0 ? fixedSize : sizes.u32be() else { return result }
                result.append(Sample(start: start, offset: offset, size: Int(size)))
                timeLeft -= 1
                start += delta  // at most `limit` deltas of 32 bits: no overflow
                let (next, overflow) = offset.addingReportingOverflow(Int(size))
                guard !overflow else { return result }
                offset = next
            }
        }
        return result
    }

    private func readRun(_ c: inout ByteCursor) -> (firstChunk: UInt32, perChunk: UInt32)? {
        guard let first = c.u32be(), let perChunk = c.u32be(), c.skip(4) else { return nil }
        return (first, perChunk)
    }
}
