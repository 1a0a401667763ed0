/// Joins one logical stream's pages into packets (RFC 3533: a lacing value of 255 continues the packet, a
/// smaller one ends it, a packet may run over many pages), as libogg's `ogg_stream_packetout` does for the
/// header packets a reader needs.
///
/// A page missing from the sequence loses the packet it was part of: the part before is dropped and the
/// rest skipped to the next packet boundary, with a problem. A packet longer than `maxPacket` is refused.
struct OggPacketAssembler {
    /// The longest header packet joined (a comment header with pictures in it can be megabytes).
    static let maxPacket = 16 << 20

    let serial: UInt32
    private(set) var packets: [[UInt8]] = []
    private(set) var problems: [FormatError] = []
    /// A packet over `maxPacket` was met: nothing more is joined.
    private(set) var overflowed = false
    private var partial: [UInt8] = []
    private var skipping = false
    private var nextSequence: UInt32?

    init(serial: UInt32) { self.serial = serial }

    /// Adds one page of the stream (`bytes` are the whole page, header and body).
    mutating func add(_ page: OggPage, _ bytes: ArraySlice<UInt8>) {
        guard page.serial == serial, !overflowed else { return }
        if let expected = nextSequence, page.sequence != expected {
            report("Ogg page \(expected) of the stream is missing")
            partial = []
            skipping = page.isContinued
        } else if page.isContinued, partial.isEmpty, !skipping {
            report("an Ogg page continues a packet whose start is missing")
            skipping = true
        } else if !page.isContinued, !partial.isEmpty || skipping {
            if !partial.isEmpty { report("an Ogg packet ends without its last page") }
            partial = []
            skipping = false
        }
        nextSequence = page.sequence &+ 1
        var position = bytes.startIndex + page.headerLength
        for value in page.lacing {
            let end = position + Int(value)
            if !skipping { partial += bytes[position..<end] }
            position = end
            if partial.count > Self.maxPacket {
                overflowed = true
                problems.append(FormatError("damaged", "an Ogg header packet is over \(Self.maxPacket >> 20) MiB"))
                partial = []
                return
            }
            if value < 255 {
                if !skipping { packets.append(partial) }
                partial = []
                skipping = false
            }
        }
    }

    /// Notes a loss; the first few only (a file of broken pages must not make a list as long as itself).
    private mutating func report(_ reason: String) {
        if problems.count < 8 { problems.append(FormatError("damaged", reason)) }
    }
}
