// libFuzzer target 5 (issue 21): what LCDd sends, through the parser `LCDprocConnection` feeds
// (Sources/Devices/Display/LCDprocLines.swift, built into this module by contrib/fuzz/run.sh).
//
// The input is LCDd's byte stream, fed in reads of 1 to 61 bytes (the input decides the sizes, so lines
// split across reads in every way). Checked (a failed check is a crash the fuzzer reports):
// - feeding in pieces gives the same lines as feeding the whole stream at once;
// - every complete line comes out, one per newline, and what stays buffered is at most one line's worth;
// - a `connect` line gives a display size the LCDprocDisplay can be built with (both sides within the
//   bounds LCDprocServerInfo promises);
// - a quoted argument (LCDprocQuote) reads back, byte by byte as LCDd reads it, as the text it quotes,
//   with no newline to end the command early.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    var whole = LCDprocLines()
    let all = whole.feed(bytes)
    let newlines = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    require(all.count == newlines, "\(newlines) newlines gave \(all.count) lines")

    var pieces = LCDprocLines()
    var lines: [LCDprocLines.Line] = []
    var at = 0
    while at < size {
        let n = min(size - at, 1 + Int(bytes[at]) % 61)
        lines += pieces.feed(bytes[at..<at + n])
        at += n
    }
    require(lines == all, "lines depend on how the stream was split")
    require(pieces == whole, "the buffered rest depends on how the stream was split")

    for line in all {
        if case .connect(let info) = line {
            require(
                (1...LCDprocServerInfo.maxColumns).contains(info.columns)
                    && (1...LCDprocServerInfo.maxRows).contains(info.rows),
                "connect gave a \(info.columns)x\(info.rows) display")
        }
        if case .failure(let why) = line {
            require(!why.hasPrefix(" "), "a failure's reason keeps its leading space")
        }
    }

    // Quoting: LCDd reads the command's bytes up to the newline and a quoted argument by dropping the
    // quotes and each backslash's escape. It must read back the text (line breaks as spaces), never end early.
    let text = String(decoding: bytes.prefix(256), as: UTF8.self)
    let quoted = Array(LCDprocQuote.quoted(text).utf8)
    require(quoted.count >= 2 && quoted.first == 0x22 && quoted.last == 0x22, "not in quotes: \(quoted)")
    require(!quoted.contains(0x0A) && !quoted.contains(0x0D), "a line break would end the command")
    var unquoted: [UInt8] = []
    var escaped = false
    for byte in quoted.dropFirst().dropLast() {
        if escaped {
            unquoted.append(byte)
            escaped = false
        } else if byte == 0x5C {
            escaped = true
        } else {
            require(byte != 0x22, "an unescaped quote ends the argument early: \(text.debugDescription)")
            unquoted.append(byte)
        }
    }
    let expected = Array(text.utf8).map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
    require(!escaped && unquoted == expected, "the quoted argument does not read back: \(text.debugDescription)")
    return 0
}
