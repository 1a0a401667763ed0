import Foundation

/// Makes the demo library's sound: tunes written as note names become mono 16-bit 44.1 kHz WAV data.
/// A few additive voices (a handful of harmonics each) with short fades, so notes never click.
enum DemoSynth {
    static let sampleRate = 44_100

    /// A note (`frequency` in Hz) or a rest (nil), `seconds` long.
    struct Note {
        var frequency: Double?
        var seconds: Double
    }

    /// A timbre: harmonics (multiple of the fundamental, amplitude) and an envelope.
    enum Voice {
        case sine, square, triangle, organ, bell, pad, speech

        var harmonics: [(Double, Double)] {
            switch self {
            case .sine: [(1, 1)]
            case .square: [(1, 1), (3, 1.0 / 3), (5, 1.0 / 5), (7, 1.0 / 7), (9, 1.0 / 9)]
            case .triangle: [(1, 1), (3, -1.0 / 9), (5, 1.0 / 25), (7, -1.0 / 49)]
            case .organ: [(1, 1), (2, 0.5), (3, 0.25), (4, 0.12)]
            case .bell: [(1, 1), (2.76, 0.3), (5.4, 0.12)]
            case .pad: [(1, 1), (2, 0.3), (3, 0.1)]
            case .speech: [(1, 1), (2, 0.7), (3, 0.5), (4, 0.3), (5, 0.15)]
            }
        }

        /// Fade-in and fade-out in seconds; `decay` (per second) makes a struck, dying note.
        var attack: Double { self == .pad ? 0.6 : self == .bell ? 0.004 : 0.015 }
        var release: Double { self == .pad ? 0.8 : 0.04 }
        var decay: Double { self == .bell ? 2.5 : 0 }
    }

    /// Parses a tune: space-separated notes such as `C4`, `F#5`, `Bb3` or `R` (a rest), each with an
    /// optional `:beats` (default 1) at `bpm` beats a minute. A malformed tune is a bug in the catalogue.
    static func notes(_ tune: String, bpm: Double) -> [Note] {
        tune.split(separator: " ").map { token in
            let parts = token.split(separator: ":")
            let beats = parts.count > 1 ? Double(parts[1])! : 1
            let seconds = beats * 60 / bpm
            let name = parts[0]
            if name == "R" { return Note(frequency: nil, seconds: seconds) }
            let steps: [Character: Int] = ["C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2]
            var semitones = steps[name.first!]!
            var rest = name.dropFirst()
            if rest.first == "#" { semitones += 1; rest = rest.dropFirst() }
            if rest.first == "b" { semitones -= 1; rest = rest.dropFirst() }
            let octave = Int(rest)!
            semitones += (octave - 4) * 12
            return Note(frequency: 440 * pow(2, Double(semitones) / 12), seconds: seconds)
        }
    }

    /// A voice-like babble for the podcast: syllables of varying pitch and length, with pauses.
    /// Deterministic for a `seed`.
    static func babble(seconds: Double, seed: UInt64) -> [Note] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func next() -> Double {  // splitmix64, as a fraction in 0..<1
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        var out: [Note] = []
        var total = 0.0
        while total < seconds {
            let note =
                next() < 0.12
                ? Note(frequency: nil, seconds: 0.25 + next() * 0.35)
                : Note(frequency: 120 + next() * 110, seconds: 0.09 + next() * 0.22)
            out.append(note)
            total += note.seconds
        }
        return out
    }

    /// The notes played by `voice` as a WAV file's bytes (RIFF, PCM, mono, 16-bit, 44.1 kHz).
    static func wav(_ notes: [Note], voice: Voice) -> Data {
        let rate = Double(sampleRate)
        let harmonics = voice.harmonics
        let gain = 0.5 * 32767 / harmonics.reduce(0) { $0 + abs($1.1) }
        var samples: [Int16] = []
        samples.reserveCapacity(Int(notes.reduce(0) { $0 + $1.seconds } * rate) + notes.count)
        for note in notes {
            let count = Int(note.seconds * rate)
            guard let f = note.frequency else {
                samples.append(contentsOf: repeatElement(0, count: count))
                continue
            }
            let fadeIn = max(1, voice.attack * rate), fadeOut = max(1, min(voice.release * rate, Double(count) / 2))
            for i in 0..<count {
                let t = Double(i) / rate
                var v = 0.0
                for (multiple, amplitude) in harmonics { v += amplitude * sin(2 * .pi * f * multiple * t) }
                var envelope = min(1, Double(i) / fadeIn, Double(count - i) / fadeOut)
                if voice.decay > 0 { envelope *= exp(-voice.decay * t) }
                samples.append(Int16(v * envelope * gain))
            }
        }
        var data = Data(capacity: 44 + samples.count * 2)
        func put(_ s: String) { data.append(contentsOf: Array(s.utf8)) }
        func put32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
        func put16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
        put("RIFF")
        put32(36 + samples.count * 2)
        put("WAVE")
        put("fmt ")
        put32(16)
        put16(1)  // PCM
        put16(1)  // mono
        put32(sampleRate)
        put32(sampleRate * 2)  // bytes a second
        put16(2)  // bytes a frame
        put16(16)  // bits a sample
        put("data")
        put32(samples.count * 2)
        samples.map(\.littleEndian).withUnsafeBufferPointer { data.append($0) }
        return data
    }
}
