/// One atom (ISO box) inside bytes already read: its type and its payload, the bytes after its header.
///
/// The payload is a slice of the buffer the parent was read into, so its indices are positions in that
/// buffer (for `moov`, the buffer starts at the atom's file offset and `MP4Box.fileOffset` maps back).
struct MP4Atom {
    var type: FourCC
    var payload: ArraySlice<UInt8>

    /// The payload's children, when this atom is a container.
    var children: MP4Children { MP4Children(payload) }

    /// The atom at the end of a path of first children: `child("mdia", "minf", "stbl")`.
    func child(_ path: FourCC...) -> MP4Atom? {
        var atom: MP4Atom? = self
        for type in path { atom = atom?.children.first { $0.type == type } }
        return atom
    }

    /// A full box's version (its payload's first byte; 0 for an empty payload).
    var version: UInt8 { payload.first ?? 0 }

    /// A cursor over a full box's payload after its version and flags; nil for a payload too short.
    var body: ByteCursor? {
        var c = ByteCursor(payload)
        return c.skip(4) ? c : nil
    }
}

/// The atoms one after another in a payload, each read from its header: a 32-bit size, the type, a 64-bit
/// size when the 32-bit one is 1, to the end of the payload when it is 0.
///
/// A size that lies (smaller than its header, or past the end of the payload) ends the walk and is kept in
/// `damage`; the walk never traps and takes one step per atom, so it is linear in the payload's length.
struct MP4Children: Sequence, IteratorProtocol {
    private var cursor: ByteCursor
    /// Why the walk stopped early, when an atom's header lied.
    private(set) var damage: String?

    init(_ payload: ArraySlice<UInt8>) { cursor = ByteCursor(payload) }

    mutating func next() -> MP4Atom? {
        guard damage == nil, cursor.remaining >= 8 else { return nil }
        let start = cursor.position
        guard let size32 = cursor.u32be(), let type = cursor.u32be().map(FourCC.init(rawValue:)) else { return nil }
        var size = Int(size32)
        if size32 == 1 {
            guard let large = cursor.u64be(), large <= UInt64(Int.max) else {
                damage = "the atom '\(type)' has a 64-bit size that does not fit"
                return nil
            }
            size = Int(large)
        } else if size32 == 0 {
            size = cursor.bytes.endIndex - start
        }
        let header = cursor.position - start
        guard size >= header, let payload = cursor.take(size - header) else {
            damage = "the atom '\(type)' claims \(size) bytes where \(cursor.bytes.endIndex - start) remain"
            return nil
        }
        return MP4Atom(type: type, payload: payload)
    }
}
