import Foundation

/// The wheel click: a short 2 kHz tick, made in code so no asset has to be installed.
///
/// Its loud part lasts ~10 ms rather than a sharper spike: a sink waking from idle may swallow the first
/// milliseconds of a sample (the null sink does), and a front-loaded click then all but vanishes.
///
/// Silence follows it to 100 ms: PipeWire 0.3.65's pulse server (Debian 12, Raspberry Pi OS Bookworm)
/// plays nothing of a sample shorter than the graph's quantum, and ClickWheel's own 200 ms stream sets
/// that quantum to 2048 frames (42.7 ms at 48 kHz), so the bare click was silent while music played
/// (PipeWire's issue 3365, fixed in later releases; the measurement is in contrib/bench/README.md,
/// "Measurements behind constants in the code"). 100 ms covers that quantum at 44.1 kHz too with the
/// click inside the first one.
///
/// Thread rules: pure; any thread.
enum ClickSound {
    /// 100 ms of mono signed 16-bit little-endian PCM at 44.1 kHz: 1.5 ms attack, 0.8 of full scale until
    /// 10 ms, an exponential decay to 25 ms, then silence.
    static func pcm(rate: Int = 44_100) -> (rate: Int, bytes: [UInt8]) {
        let count = rate * 25 / 1000
        let total = rate * 100 / 1000
        var bytes = [UInt8]()
        bytes.reserveCapacity(total * 2)
        for n in 0..<count {
            let t = Double(n) / Double(rate)
            let envelope = t < 0.0015 ? t / 0.0015 : t < 0.010 ? 1 : exp(-(t - 0.010) / 0.004)
            let value = 0.8 * envelope * sin(2 * Double.pi * 2000 * t)
            let sample = Int16(clamping: Int((value * 32767).rounded()))
            let bits = UInt16(bitPattern: sample)
            bytes.append(UInt8(bits & 0xFF))
            bytes.append(UInt8(bits >> 8))
        }
        bytes.append(contentsOf: repeatElement(0, count: (total - count) * 2))
        return (rate, bytes)
    }
}
