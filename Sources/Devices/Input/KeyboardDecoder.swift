public import ClickWheelCore

/// Turns terminal key bytes into click-wheel input: arrows or j/k turn the wheel, Enter is Select,
/// Esc or Backspace is Menu, space is Play/Pause, n/p are Next/Previous, q quits. `h` then a key
/// holds that key's button; Shift holds too (N, P, S = Select, M = Menu). Pure; `KeyboardInput`
/// feeds it what `read` returns.
public struct KeyboardDecoder: Hashable, Sendable {
    /// What one key means.
    public enum Key: Hashable, Sendable {
        case wheel(Int)
        case click(Button)
        case hold(Button)
        case quit
    }

    private var holdNext = false
    private var pending: [UInt8] = []

    public init() {}

    /// Decodes the bytes of one `read`. An Esc that ends the chunk is the Esc key (escape sequences
    /// arrive whole in one read); an unfinished sequence is kept for the next chunk only if it has
    /// started with `ESC [`.
    public mutating func feed(_ bytes: [UInt8]) -> [Key] {
        var input = pending + bytes
        pending = []
        var keys: [Key] = []
        var i = 0
        while i < input.count {
            let b = input[i]
            if b == 0x1B {
                if i + 1 >= input.count {
                    keys += button(.menu)
                    i += 1
                    continue
                }
                if input[i + 1] == UInt8(ascii: "[") || input[i + 1] == UInt8(ascii: "O") {
                    guard i + 2 < input.count else {
                        pending = Array(input[i...])
                        break
                    }
                    switch input[i + 2] {
                    case UInt8(ascii: "A"), UInt8(ascii: "D"): keys.append(.wheel(-1))
                    case UInt8(ascii: "B"), UInt8(ascii: "C"): keys.append(.wheel(1))
                    default: break
                    }
                    i += 3
                    continue
                }
                keys += button(.menu)
                i += 1
                continue
            }
            keys += key(b)
            i += 1
        }
        input.removeAll()
        return keys
    }

    /// Joins runs of same-direction wheel keys that arrived in one read (a burst from tmux or a paste)
    /// into one event of several steps, so acceleration sees them as one move, not as a spin of
    /// microseconds per step.
    public static func coalesced(_ keys: [Key]) -> [Key] {
        var out: [Key] = []
        for key in keys {
            if case .wheel(let s) = key, case .wheel(let t)? = out.last, (s > 0) == (t > 0) {
                out[out.count - 1] = .wheel(s + t)
            } else {
                out.append(key)
            }
        }
        return out
    }

    private mutating func button(_ b: Button) -> [Key] {
        defer { holdNext = false }
        return [holdNext ? .hold(b) : .click(b)]
    }

    private mutating func key(_ b: UInt8) -> [Key] {
        switch b {
        case UInt8(ascii: "j"): return [.wheel(1)]
        case UInt8(ascii: "k"): return [.wheel(-1)]
        case 0x0D, 0x0A: return button(.select)
        case 0x7F, 0x08: return button(.menu)
        case UInt8(ascii: " "): return button(.playPause)
        case UInt8(ascii: "n"): return button(.next)
        case UInt8(ascii: "p"): return button(.previous)
        case UInt8(ascii: "N"): return [.hold(.next)]
        case UInt8(ascii: "P"): return [.hold(.previous)]
        case UInt8(ascii: "S"): return [.hold(.select)]
        case UInt8(ascii: "M"): return [.hold(.menu)]
        case UInt8(ascii: "h"):
            holdNext = true
            return []
        case UInt8(ascii: "q"), 0x03, 0x04: return [.quit]
        default: return []
        }
    }
}
