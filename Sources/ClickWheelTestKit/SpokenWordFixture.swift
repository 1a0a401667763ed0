public import ClickWheelCore
public import Foundation

/// A real spoken-word MP3 with ID3v2 chapters, made at run time from the tools CI installs: espeak-ng
/// speaks one sentence per chapter, lame encodes the joined speech (VBR at 44.1 kHz: a Xing/LAME header,
/// so the gapless length is the speech's; at low CBR rates lame leaves that header out), and mutagen
/// writes the tags, a top-level `CTOC` and one `CHAP` per sentence.
/// About 4 s long and 20 KB: quick to index and to play.
public enum SpokenWordFixture {
    /// The chapters' titles and the sentence each speaks.
    public static let script: [(title: String, text: String)] = [
        ("Opening", "This is the opening of the book."),
        ("The Wheel", "A wheel turns, and the story moves on."),
        ("Closing", "And that is the end."),
    ]

    /// What was written: the chapters as tagged (start at each sentence, end at the next) and the length.
    public struct Made: Sendable {
        public var chapters: [Chapter]
        public var durationMS: Int
    }

    /// Writes the file at `url` with these tags; `chapters: false` leaves out CTOC and CHAP.
    @discardableResult
    public static func make(
        at url: URL, title: String, album: String, artist: String = "Reader", genre: String = "Audiobook",
        track: Int = 1, chapters: Bool = true
    ) throws -> Made {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var arguments = ["-c", pythonScript, url.path, title, album, artist, genre, String(track), chapters ? "1" : "0"]
        for line in script { arguments += [line.title, line.text] }
        let r = try ChildProcess.run("python3", arguments)
        guard r.status == 0 else {
            throw FixtureError(description: "spoken-word fixture failed (\(r.status)): \(r.stderr)")
        }
        // stdout: the length in ms, then one "start end title" line per chapter.
        var lines = r.stdout.split(separator: "\n").map(String.init)
        guard let first = lines.first, let duration = Int(first) else {
            throw FixtureError(description: "spoken-word fixture printed no length: \(r.stdout)")
        }
        lines.removeFirst()
        let made = lines.compactMap { line -> Chapter? in
            let f = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard f.count == 3, let s = Int(f[0]), let e = Int(f[1]) else { return nil }
            return Chapter(startMS: s, endMS: e, title: f[2])
        }
        return Made(chapters: made, durationMS: duration)
    }

    public struct FixtureError: Error, CustomStringConvertible {
        public var description: String
    }

    static let pythonScript = #"""
        import os, subprocess, sys, tempfile, wave
        from mutagen.id3 import ID3, TIT2, TPE1, TALB, TCON, TRCK, CHAP, CTOC, CTOCFlags
        out, title, album, artist, genre, track, with_chapters = sys.argv[1:8]
        pairs = sys.argv[8:]
        script = list(zip(pairs[0::2], pairs[1::2]))
        tmp = tempfile.mkdtemp()
        frames, params, starts = b"", None, []
        for i, (name, text) in enumerate(script):
            w = os.path.join(tmp, "%d.wav" % i)
            subprocess.run(["espeak-ng", "-s", "190", "-w", w, text], check=True)
            with wave.open(w) as f:
                params = f.getparams()
                data = f.readframes(f.getnframes())
            starts.append(len(frames) // (params.sampwidth * params.nchannels))
            frames += data
        total = len(frames) // (params.sampwidth * params.nchannels)
        ms = lambda n: n * 1000 // params.framerate
        joined = os.path.join(tmp, "all.wav")
        with wave.open(joined, "wb") as f:
            f.setparams(params)
            f.writeframes(frames)
        subprocess.run(["lame", "--quiet", "--noreplaygain", "-V", "9", "--resample", "44.1",
                        joined, out], check=True)
        tags = ID3()
        tags.add(TIT2(encoding=3, text=[title]))
        tags.add(TPE1(encoding=3, text=[artist]))
        if album:
            tags.add(TALB(encoding=3, text=[album]))
        tags.add(TCON(encoding=3, text=[genre]))
        tags.add(TRCK(encoding=3, text=[track]))
        print(ms(total))
        if with_chapters == "1":
            ids = ["chp%d" % i for i in range(len(script))]
            tags.add(CTOC(element_id="toc", flags=CTOCFlags.TOP_LEVEL | CTOCFlags.ORDERED,
                          child_element_ids=ids, sub_frames=[TIT2(encoding=3, text=["Contents"])]))
            for i, (name, _) in enumerate(script):
                end = starts[i + 1] if i + 1 < len(starts) else total
                tags.add(CHAP(element_id=ids[i], start_time=ms(starts[i]), end_time=ms(end),
                              start_offset=0xFFFFFFFF, end_offset=0xFFFFFFFF,
                              sub_frames=[TIT2(encoding=3, text=[name])]))
                print(ms(starts[i]), ms(end), name)
        tags.save(out, v2_version=4)
        for f in os.listdir(tmp):
            os.remove(os.path.join(tmp, f))
        os.rmdir(tmp)
        """#
}
