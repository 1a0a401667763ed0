/// Public editing for frames drawn outside the renderer (test patterns, hardware harnesses, tests).
///
/// The renderer builds its frames through `FrameBuilder`; these helpers give drivers' harnesses the
/// same two moves: text folded through a charset, and glyphs placed in one of the 8 slots.
extension Frame {
    /// Writes `text`, folded through `charset`, on `row` from `column`, cut at the right edge.
    public mutating func put(_ text: String, row: Int, column: Int = 0, charset: TextCharset) {
        precondition(row >= 0 && row < rows, "row \(row) outside the frame")
        write(Array(charset.fold(text)).map { .char($0) }, row: row, column: column)
    }

    /// Places `glyph` at (`row`, `column`) in its slot, allocating one if needed; when all 8 slots
    /// hold other glyphs the cell gets the glyph's ASCII stand-in and this returns false.
    @discardableResult
    public mutating func put(_ glyph: Glyph, row: Int, column: Int) -> Bool {
        precondition(row >= 0 && row < rows && column >= 0 && column < columns, "cell outside the frame")
        if let slot = glyphs.firstIndex(of: glyph) {
            self[row, column] = .glyph(UInt8(slot))
            return true
        }
        guard glyphs.count < 8 else {
            self[row, column] = .char(glyph.ascii)
            return false
        }
        glyphs.append(glyph)
        self[row, column] = .glyph(UInt8(glyphs.count - 1))
        return true
    }
}
