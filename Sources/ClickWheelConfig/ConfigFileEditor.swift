import Foundation
import Glibc
import Yams

/// Sets keys in a YAML configuration file the way a person would: the line of each key that is there
/// gets its new value (its comment stays where it was), keys that are missing are appended, and every
/// other line — comments, blank lines, other keys — is left byte for byte.
///
/// Where the keys are comes from Yams's compose (node marks: 1-based lines, columns in Unicode
/// scalars). A value this cannot rewrite in place (a block sequence or a multi-line scalar) is an
/// error rather than a guess. The result is checked with the loader before it is returned, and
/// `write` replaces the file atomically (a temporary file in the same directory, then `rename`).
public enum ConfigFileEditor {
    public struct Failure: Error, Equatable, CustomStringConvertible, Sendable {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// One key to set: its YAML name, the value as it should be written, and an optional comment
    /// for an appended line.
    public struct Setting: Equatable, Sendable {
        public var key: String
        public var value: String
        public var comment: String?

        public init(key: String, value: String, comment: String? = nil) {
            self.key = key
            self.value = value
            self.comment = comment
        }
    }

    /// `text` with `settings` applied; `fileName` names the file in errors.
    public static func apply(_ settings: [Setting], to text: String, fileName: String = "config") throws(Failure)
        -> String
    {
        for s in settings where ConfigKey.byName[s.key] == nil { preconditionFailure("unknown key \(s.key)") }
        // A value is written on its key's line: a line break in it would carry it onto the next line (YAML
        // reads that as the same value, and the next edit finds a multi-line value it cannot rewrite).
        let breaks: Set<Unicode.Scalar> = ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"]
        for s in settings where s.value.unicodeScalars.contains(where: breaks.contains) {
            throw Failure("\(fileName): the value of '\(s.key)' has a line break, not changed")
        }
        // A comment inside a value (` #` after it, or a value that starts with `#`) is not part of it for YAML,
        // and the next edit would keep the old comment after the new one: comments go in `comment`.
        for s in settings {
            let scalars = Array(s.value.unicodeScalars)
            let comment = scalars.indices.contains { i in
                scalars[i] == "#" && (i == 0 || scalars[i - 1] == " " || scalars[i - 1] == "\t")
            }
            if comment { throw Failure("\(fileName): the value of '\(s.key)' holds a comment, not changed") }
        }
        // Spaces around a value mean nothing to YAML; kept, those after it would pile up before a comment
        // or the line's end at every edit.
        let settings = settings.map { s in
            var s = s
            let scalars = s.value.unicodeScalars
            let isBlank = { (c: Unicode.Scalar) in c == " " || c == "\t" }
            let start = scalars.firstIndex { !isBlank($0) } ?? scalars.endIndex
            let end = scalars.lastIndex { !isBlank($0) }.map(scalars.index(after:)) ?? start
            s.value = String(scalars[start..<max(start, end)])
            return s
        }
        // A plain value must read back as itself: one that YAML reads otherwise (a tag, `!x`; an anchor,
        // `&x`; an alias, `*x`) would load as something else, and the next edit could not find it on its
        // line; a quoted one must end at its closing quote (found by the config fuzz target). Flow lists
        // read as what they hold.
        for s in settings {
            let node = try? Yams.compose(yaml: "\(s.key): \(s.value)")
            let ok: Bool
            if case .mapping(let m)? = node, let value = m.first?.value {
                if case .scalar(let scalar) = value, scalar.style == .plain {
                    ok = scalar.string == s.value
                } else if case .scalar(let scalar) = value, scalar.style == .singleQuoted || scalar.style == .doubleQuoted {
                    // Nothing after the closing quote (`'a'##0` loads as 'a', and the edit kept the rest).
                    let quote: Character = scalar.style == .singleQuoted ? "'" : "\""
                    ok = s.value.count >= 2 && s.value.first == quote && s.value.last == quote
                } else {
                    ok = true
                }
            } else {
                ok = false
            }
            if !ok { throw Failure("\(fileName): the value of '\(s.key)' is not read back as written, not changed") }
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw Failure("\(fileName): not valid YAML, not changed: \(error)")
        }
        var positions: [String: (line: Int, column: Int, node: Node)] = [:]
        if let root {
            // (A flow mapping, `{a: 1}`, passes here but fails the final check once a line is appended.)
            guard case .mapping(let mapping) = root else {
                throw Failure("\(fileName): not a block mapping of keys to values, not changed")
            }
            for (key, value) in mapping {
                guard let name = key.string, let mark = value.mark else { continue }
                positions[name] = (mark.line, mark.column, value)
            }
        }
        let split = Self.lines(text)
        var lines = split.lines
        var appended: [String] = []
        for setting in settings {
            guard let (line, column, node) = positions[setting.key] else {
                appended.append(
                    "\(setting.key): \(setting.value)" + (setting.comment.map { "    # \($0)" } ?? ""))
                continue
            }
            guard line >= 1, line <= lines.count else { throw Failure("\(fileName): cannot find '\(setting.key)'") }
            lines[line - 1] = try replace(
                in: lines[line - 1], at: column, node: node, with: setting.value, key: setting.key,
                where: "\(fileName):\(line)")
        }
        var result = zip(lines, split.breaks).map { $0 + $1 }.joined()
        if !appended.isEmpty {
            if let last = lines.last, !last.isEmpty { result += "\n" }  // the last line had no break
            result += appended.joined(separator: "\n") + "\n"
        }
        var check = ConfigLoader().defaults()
        let problems = ConfigLoader().apply(yaml: result, fileName: fileName, to: &check)
        guard problems.isEmpty else {
            throw Failure(
                "the edited configuration would not load, not changed:\n"
                    + problems.map(\.description).joined(separator: "\n"))
        }
        return result
    }

    /// `text`'s lines and the break after each (empty after the last), cut where YAML (libyaml) counts a
    /// line: at CR LF, LF, CR, NEL, LS and PS. Splitting at LF alone (by Character, where CR LF is one)
    /// numbered lines differently from Yams's marks after a lone CR, and the edit went to the wrong line.
    static func lines(_ text: String) -> (lines: [String], breaks: [String]) {
        let scalars = Array(text.unicodeScalars)
        var lines: [String] = [], breaks: [String] = []
        var start = 0, i = 0
        while i < scalars.count {
            let c = scalars[i]
            let length =
                c == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n"
                ? 2 : ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(c) ? 1 : 0
            if length == 0 {
                i += 1
                continue
            }
            lines.append(String(String.UnicodeScalarView(scalars[start..<i])))
            breaks.append(String(String.UnicodeScalarView(scalars[i..<i + length])))
            i += length
            start = i
        }
        lines.append(String(String.UnicodeScalarView(scalars[start...])))
        breaks.append("")
        return (lines, breaks)
    }

    /// The line with the value that starts at `column` replaced by `value`; a comment after it keeps
    /// its column when the new value leaves room.
    private static func replace(
        in line: String, at column: Int, node: Node, with value: String, key: String, where place: String
    ) throws(Failure) -> String {
        let scalars = Array(line.unicodeScalars)
        let start = column - 1
        guard start >= 0, start <= scalars.count else { throw Failure("\(place): cannot find the value of '\(key)'") }
        var end: Int
        switch node {
        case .scalar(let s) where s.style == .plain:
            // A plain scalar ends before " #" or at the end of the line.
            end = scalars.count
            for i in start..<scalars.count
            where scalars[i] == "#" && i > start && (scalars[i - 1] == " " || scalars[i - 1] == "\t") {
                end = i
                break
            }
            // A plain scalar goes on over more-indented lines (`music: a` then `   b` is "a b"): what this
            // line holds is then not the whole value, and replacing it would leave the rest behind.
            var last = end
            while last > start && (scalars[last - 1] == " " || scalars[last - 1] == "\t") { last -= 1 }
            guard String(String.UnicodeScalarView(scalars[start..<last])) == s.string else {
                throw Failure("\(place): '\(key)' spans several lines; set it by hand")
            }
        case .scalar(let s) where s.style == .singleQuoted || s.style == .doubleQuoted:
            let quote = scalars[start]
            guard let close = (start + 1..<scalars.count).first(where: { scalars[$0] == quote }) else {
                throw Failure("\(place): '\(key)' spans several lines; set it by hand")
            }
            end = close + 1
        case .sequence where start < scalars.count && scalars[start] == "[":
            // A flow sequence (Yams reports sequence styles unreliably, so the text decides).
            guard let close = (start..<scalars.count).first(where: { scalars[$0] == "]" }) else {
                throw Failure("\(place): '\(key)' spans several lines; set it by hand")
            }
            end = close + 1
        default:
            throw Failure("\(place): '\(key)' is not a one-line value; set it by hand")
        }
        while end > start && (scalars[end - 1] == " " || scalars[end - 1] == "\t") { end -= 1 }
        var rest = String(String.UnicodeScalarView(scalars[end...]))
        let oldWidth = end - start
        let newWidth = value.unicodeScalars.count
        if rest.hasPrefix(" ") || rest.hasPrefix("\t"), rest.contains("#") {
            let padding = rest.prefix { $0 == " " || $0 == "\t" }
            let keep = max(1, padding.count + oldWidth - newWidth)
            rest = String(repeating: " ", count: keep) + rest.dropFirst(padding.count)
        }
        return String(String.UnicodeScalarView(scalars[..<start])) + value + rest
    }

    /// Writes `text` to `path` atomically: a temporary file beside it (same mode and owner as the
    /// file it replaces), flushed to disk, then renamed over it.
    public static func write(_ text: String, to path: String) throws(Failure) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temp = directory + "/." + url.lastPathComponent + ".calibrate-\(getpid())"
        var old = stat()
        let exists = stat(path, &old) == 0
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, exists ? old.st_mode & 0o7777 : 0o644)
        guard fd >= 0 else { throw Failure("cannot write \(temp): \(String(cString: strerror(errno)))") }
        var failed: String?
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count && failed == nil {
            let n = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno != EINTR { failed = "cannot write \(temp): \(String(cString: strerror(errno)))" }
            if n > 0 { done += n }
        }
        // The old file's mode exactly (the service's umask would otherwise take the group's or the
        // world's read bit away), and its owner where we may set it.
        if failed == nil && exists { _ = fchmod(fd, old.st_mode & 0o7777) }
        if failed == nil && exists && getuid() == 0 { _ = fchown(fd, old.st_uid, old.st_gid) }
        if failed == nil && fsync(fd) != 0 { failed = "cannot flush \(temp): \(String(cString: strerror(errno)))" }
        close(fd)
        if failed == nil && rename(temp, path) != 0 {
            failed = "cannot replace \(path): \(String(cString: strerror(errno)))"
        }
        if let failed {
            unlink(temp)
            throw Failure(failed)
        }
        // The rename itself reaches the disk: a power cut right after a Save keeps the new file.
        let dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }
}
