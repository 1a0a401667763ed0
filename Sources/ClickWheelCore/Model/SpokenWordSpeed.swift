/// Settings → Audiobooks: the speeds podcasts and audiobooks play at, pitch kept (music never changes).
///
/// The iPod's own menu offers Slower, Normal and Faster; here the same list goes on in quarter steps
/// from 0.5× to 3×, slowest first, with the three named rows where their speeds fall (0.75×, 1×, 1.5×):
/// one screen, and the wheel moves through the speeds in order. Speeds are kept in percent (exact).
public enum SpokenWordSpeed {
    /// The speeds offered, in percent, slowest first.
    public static let percents = Array(stride(from: 50, through: 300, by: 25))

    /// A speed's row title: its iPod name, else its factor.
    public static func title(of percent: Int) -> String {
        switch percent {
        case 75: "Slower"
        case 100: "Normal"
        case 150: "Faster"
        default: factor(percent)
        }
    }

    /// What Settings shows beside Audiobooks: the name, else the factor.
    public static func label(of percent: Int) -> String { title(of: percent) }

    /// The factor as text: "0.75x", "1x", "2.5x" (ASCII x: the LCD's character ROM has no ×).
    public static func factor(_ percent: Int) -> String {
        let whole = percent / 100, rest = percent % 100
        if rest == 0 { return "\(whole)x" }
        return rest % 10 == 0 ? "\(whole).\(rest / 10)x" : "\(whole).\(rest)x"
    }

    /// The speed as a factor for playback (1 for anything outside 0.5…3, as stored by a bad hand).
    public static func value(_ percent: Int) -> Double {
        percents.contains(percent) ? Double(percent) / 100 : 1
    }
}
