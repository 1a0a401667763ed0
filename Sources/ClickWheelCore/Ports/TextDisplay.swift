/// A character display the engine's frames are shown on (terminal, LCDproc, HD44780 over I2C).
///
/// Implementations write only what changed since the last frame (`Frame.changes(from:)`), encode
/// text with their charset, and load the frame's custom glyphs where the hardware has them.
///
/// Thread rules: called from the engine loop only (one caller at a time); a display whose device
/// blocks writes on a thread of its own (`ThreadedDisplay`), so the engine never waits for it.
public protocol TextDisplay: AnyObject {
    /// The size frames for this display must have.
    var geometry: DisplayGeometry { get }
    /// The characters this display can show.
    var charset: TextCharset { get }
    /// Shows `frame`.
    func show(_ frame: Frame) throws
    /// Switches the backlight (a terminal dims the text).
    func setBacklight(_ on: Bool) throws
    /// Restores the device (and, for a terminal, the screen the user had).
    func close()
}

/// A source of decoded input (an evdev device, the keyboard), delivering events to a sink.
///
/// Thread rules: `start` and `stop` from the service's start-up and shutdown; the sink is called on the source's own thread.
public protocol InputSource: AnyObject {
    /// Starts reading; `sink` gets every event with its timestamp.
    func start(_ sink: @escaping @Sendable (InputEvent) -> Void) throws
    /// Stops reading and joins the reader thread.
    func stop()
}
