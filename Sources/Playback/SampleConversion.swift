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

    /// `x * unit * gain`, rounded to nearest (half away from zero) and clipped to 16 bits.
    ///
    /// The rounding is done without `Float.rounded`, which on x86-64's baseline instruction set is a call
    /// into libm (`roundf`) for every sample: the product is widened to `Double` and ±0.5 added there, then
    /// truncated. Every `Float` in range is exact in `Double`, and so is that sum (well below 2^52 ulps),
    /// so the result is the same as `rounded(.toNearestOrAwayFromZero)` for every input.
    @inline(__always)
    private static func from(_ x: Float, unit: Float, gain: Float) -> Int16 {
        let v = Double(x * unit * gain)
        // A value that rounds to 32767 or more (to -32768 or less) clips; NaN fails both tests and the next.
        if v >= 32766.5 { return .max }
        if v <= -32767.5 { return .min }
        guard v == v else { return 0 }
        return Int16(truncatingIfNeeded: Int32(v < 0 ? v - 0.5 : v + 0.5))
    }
}
