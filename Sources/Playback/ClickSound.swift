import Foundation

/// The wheel click: a short 2 kHz tick, made in code so no asset has to be installed.
///
/// Its loud part lasts ~10 ms rather than a sharper spike: a sink waking from idle may swallow the first
/// milliseconds of a sample (the null sink does), and a front-loaded click then all but vanishes.
///
/// Thread rules: pure; any thread.
enum ClickSound {
    /// 25 ms of mono signed 16-bit little-endian PCM at 44.1 kHz: 1.5 ms attack, 0.8 of full scale until
    /// 10 ms, then an exponential decay.
    static func pcm(rate: Int = 44_100) -> (rate: Int, bytes: [UInt8]) {
        let count = rate * 25 / 1000
        var bytes = [UInt8]()
        bytes.reserveCapacity(count * 2)
        for n in 0..<count {
            let t = Double(n) / Double(rate)
            let envelope = t < 0.0015 ? t / 0.0015 : t < 0.010 ? 1 : exp(-(t - 0.010) / 0.004)
            let value = 0.8 * envelope * sin(2 * Double.pi * 2000 * t)
            let sample = Int16(clamping: Int((value * 32767).rounded()))
            let bits = UInt16(bitPattern: sample)
            bytes.append(UInt8(bits & 0xFF))
            bytes.append(UInt8(bits >> 8))
        }
        return (rate, bytes)
    }
}
