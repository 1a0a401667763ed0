public import ClickWheelCore

/// A `TextDisplay` that keeps what it was shown: every frame, the bytes an LCD would get for each
/// changed run (through the charset), and the backlight state.
///
/// Thread rules: as any display, one caller at a time.
public final class RecordingDisplay: TextDisplay {
    public let geometry: DisplayGeometry
    public let charset: TextCharset
    /// Every frame shown, in order.
    public private(set) var frames: [Frame] = []
    /// Bytes written per `show`, as a driver writing changed runs only would send them.
    public private(set) var writes: [[UInt8]] = []
    public private(set) var backlight = true
    public private(set) var closed = false

    public init(geometry: DisplayGeometry, charset: TextCharset = .utf8) {
        self.geometry = geometry
        self.charset = charset
    }

    /// The last frame as lines of text.
    public var lines: [String] { frames.last?.lines ?? [] }

    public func show(_ frame: Frame) throws {
        precondition(frame.columns == geometry.columns && frame.rows == geometry.rows, "frame of another size")
        var bytes: [UInt8] = []
        for run in frame.changes(from: frames.last) {
            for cell in run.cells {
                switch cell {
                case .char(let c): bytes += charset.bytes(for: c)
                case .glyph(let slot): bytes.append(slot)
                }
            }
        }
        frames.append(frame)
        writes.append(bytes)
    }

    public func setBacklight(_ on: Bool) throws {
        backlight = on
    }

    public func close() {
        closed = true
    }
}

/// An `InputSource` that delivers a fixed script of events when started (on the caller's thread).
public final class ScriptedInput: InputSource {
    private let script: [InputEvent]
    public private(set) var stopped = false

    public init(_ script: [InputEvent]) {
        self.script = script
    }

    public func start(_ sink: @escaping @Sendable (InputEvent) -> Void) throws {
        for event in script { sink(event) }
    }

    public func stop() {
        stopped = true
    }
}
