/// Turning decoded samples of any width into the pipeline's signed 16 bits, with Sound Check's gain: the
/// one place where every decoder's samples are rounded, scaled and clipped.
///
/// At unity gain, 16-bit input passes bit for bit and wider integers are rounded to the nearest 16-bit
/// value (half up: 24-bit `x` becomes `(x + 128) >> 8`), clipped at full scale. With a gain, the sample is
/// scaled in `Float` (exact for 24-bit values), rounded and clipped. Floats are full scale at ±1.
///
/// Thread rules: pure functions; any thread.
enum S16 {
    /// An integer sample with `bits` significant bits (right-justified, sign-extended).
    @inline(__always)
    static func from(_ x: Int32, bits: Int, gain: Float) -> Int16 {
        if gain == 1 {
            if bits <= 16 { return Int16(truncatingIfNeeded: x << (16 - bits)) }
            let shift = Int32(bits - 16)
            return Int16(clamping: (Int64(x) + Int64(1) << (shift - 1)) >> shift)
        }
        return from(Float(x) * Float(sign: .plus, exponent: 16 - bits, significand: 1), unit: 1, gain: gain)
    }

    /// A float sample, full scale at ±1.
    @inline(__always)
    static func from(_ x: Float, gain: Float) -> Int16 { from(x, unit: 32768, gain: gain) }

    /// `x * unit * gain`, rounded to nearest and clipped to 16 bits.
    @inline(__always)
    private static func from(_ x: Float, unit: Float, gain: Float) -> Int16 {
        let v = (x * unit * gain).rounded(.toNearestOrAwayFromZero)
        if v >= 32767 { return .max }
        if v <= -32768 { return .min }
        if v.isNaN { return 0 }
        return Int16(v)
    }
}
