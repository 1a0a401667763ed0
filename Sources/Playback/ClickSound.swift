import Foundation

/// The wheel click: a short decaying 2 kHz burst, made in code so no asset has to be installed.
///
/// Thread rules: pure; any thread.
enum ClickSound {
    /// 25 ms of mono signed 16-bit little-endian PCM at 44.1 kHz, peak about 0.8 of full scale.
    static func pcm(rate: Int = 44_100) -> (rate: Int, bytes: [UInt8]) {
        let count = rate * 25 / 1000
        var bytes = [UInt8]()
        bytes.reserveCapacity(count * 2)
        for n in 0..<count {
            let t = Double(n) / Double(rate)
            let value = 0.8 * sin(2 * Double.pi * 2000 * t) * exp(-t / 0.006)
            let sample = Int16(clamping: Int((value * 32767).rounded()))
            let bits = UInt16(bitPattern: sample)
            bytes.append(UInt8(bits & 0xFF))
            bytes.append(UInt8(bits >> 8))
        }
        return (rate, bytes)
    }
}
