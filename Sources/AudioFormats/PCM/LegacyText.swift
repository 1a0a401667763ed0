/// Text of the PCM formats' tag chunks (RIFF `INFO`, AIFF `NAME`/`AUTH`/`ANNO`), which no encoding
/// is declared for: UTF-8 when the bytes are valid UTF-8, else Latin-1 (what Windows and old Macs wrote
/// is mostly a one-byte code page, and every byte is a Latin-1 character), cut at the first NUL and
/// trimmed of the spaces some writers pad with.
enum LegacyText {
    static func decode(_ bytes: some Collection<UInt8>) -> String {
        let text = bytes.prefix { $0 != 0 }
        var decoded: String
        if let utf8 = String(validating: text, as: UTF8.self) {
            decoded = utf8
        } else {
            decoded = String(String.UnicodeScalarView(text.map { Unicode.Scalar($0) }))
        }
        while decoded.last == " " { decoded.removeLast() }
        return decoded
    }
}
