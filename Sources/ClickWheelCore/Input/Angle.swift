/// Angle helpers for the touch ring, written out because the core imports no C math library.
enum Angle {
    /// The angle of (x, y) in degrees, 0…360, measured from +x towards +y.
    ///
    /// With screen coordinates (y grows downwards) this grows clockwise. A minimax polynomial for
    /// atan on [0, 1] keeps the error under 0.001°, far below any step size.
    static func degrees(x: Double, y: Double) -> Double {
        if x == 0 && y == 0 { return 0 }
        let ax = abs(x)
        let ay = abs(y)
        let t = min(ax, ay) / max(ax, ay)
        var a = atanUnit(t)
        if ay > ax { a = 90 - a }
        if x < 0 { a = 180 - a }
        if y < 0 { a = 360 - a }
        return a >= 360 ? a - 360 : a
    }

    /// atan(t) in degrees for t in 0…1.
    private static func atanUnit(_ t: Double) -> Double {
        // Reduce to |u| ≤ tan(π/12) with atan(t) = π/6 + atan((t·√3 − 1)/(t + √3)) for t > 2 − √3.
        let sqrt3 = 1.7320508075688772
        var offset = 0.0
        var u = t
        if t > 0.2679491924311227 {
            offset = 30
            u = (t * sqrt3 - 1) / (t + sqrt3)
        }
        let u2 = u * u
        // Taylor series to u^11: error below 1e-9 for |u| ≤ 0.268.
        let series = u * (1 - u2 * (1.0 / 3 - u2 * (1.0 / 5 - u2 * (1.0 / 7 - u2 * (1.0 / 9 - u2 / 11)))))
        return offset + series * 57.29577951308232
    }

    /// The signed difference `to − from` brought into −180…180.
    static func delta(from: Double, to: Double) -> Double {
        var d = to - from
        while d > 180 { d -= 360 }
        while d <= -180 { d += 360 }
        return d
    }
}
