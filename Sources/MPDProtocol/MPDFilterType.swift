/// The left-hand side of a filter: a tag or one of the special types (MPD's `locate_parse_type`).
enum MPDFilterType: Hashable {
    case file
    case any
    case base
    case modifiedSince
    case audioFormat
    case tag(MPDTag)

    /// Recognises `file`/`filename`, `any`, `AudioFormat` and tag names ignoring case, and
    /// `base`/`modified-since` only in lowercase (as MPD does).
    init?(_ name: MPDArgument) {
        if name.equalsIgnoringCase("file") || name.equalsIgnoringCase("filename") {
            self = .file
        } else if name.equalsIgnoringCase("any") {
            self = .any
        } else if name.equals("base") {
            self = .base
        } else if name.equals("modified-since") {
            self = .modifiedSince
        } else if name.equalsIgnoringCase("AudioFormat") {
            self = .audioFormat
        } else if let tag = MPDTag(name: name) {
            self = .tag(tag)
        } else {
            return nil
        }
    }

    /// MPD's `uri_safe_local`: no empty, `.` or `..` segment, no leading `/`.
    static func isSafeLocalURI(_ bytes: [UInt8]) -> Bool {
        let segments = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return segments.allSatisfy { segment in
            !segment.isEmpty && !segment.elementsEqual([UInt8(ascii: ".")])
                && !segment.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")])
        }
    }
}
