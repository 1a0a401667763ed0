import Yams

// libFuzzer target 4 (issue 21): the YAML configuration loader and the config editor's round trip
// (Sources/ClickWheelConfig, built into this module by contrib/fuzz/run.sh; Yams linked from the debug
// build). The input is a configuration file's bytes, then (after the first NUL) up to four edits, NUL
// separated, each a byte picking the key and the value's text as the editor gets it (what the calibration
// writes: YAML, one line).
//
// Checked (a failed check is a crash the fuzzer reports):
// - the loader reads any file into a configuration or errors, every error naming the file;
// - the editor either refuses (a clear Failure) or returns a file that loads without errors, and reading
//   it back equals the edit: each edited key as a file holding just `key: value` sets it, every other key
//   as the original file set it;
// - editing again with the same settings changes nothing (the edit is idempotent).

let keys = ConfigKey.all.map(\.name)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parts = bytes.split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false)
    let text = String(decoding: parts[0], as: UTF8.self)
    var settings: [ConfigFileEditor.Setting] = []
    for part in parts.dropFirst() where !part.isEmpty {
        let key = keys[Int(part.first!) % keys.count]
        let value = String(decoding: part.dropFirst(), as: UTF8.self)
        settings.append(ConfigFileEditor.Setting(key: key, value: value))
    }

    let loader = ConfigLoader(environment: [:])
    var original = loader.defaults()
    let errors = loader.apply(yaml: text, fileName: "/etc/clickwheel/clickwheel.yaml", to: &original)
    for error in errors {
        require(error.description.hasPrefix("clickwheel.yaml"), "an error without the file: \(error)")
    }
    guard !settings.isEmpty else { return 0 }

    let edited: String
    do {
        edited = try ConfigFileEditor.apply(settings, to: text, fileName: "clickwheel.yaml")
    } catch {
        return 0  // refused, with a reason: the file stays as it was
    }
    var actual = loader.defaults()
    let problems = loader.apply(yaml: edited, fileName: "clickwheel.yaml", to: &actual)
    require(problems.isEmpty, "the edited file does not load: \(problems)\n--- edited:\n\(edited)")

    // The expected configuration: the original's, then each edit as a one-line file of its own.
    var expected = original
    for setting in settings {
        let line = "\(setting.key): \(setting.value)"
        guard (try? Yams.compose(yaml: line)) != nil,
            loader.apply(yaml: line, fileName: "edit", to: &expected).isEmpty
        else { return 0 }  // a value that is not one YAML line of its own: nothing to compare with
    }
    if errors.isEmpty {
        require(
            actual == expected,
            "read back differs from the edit\n--- original:\n\(text)\n--- edited:\n\(edited)\n--- settings: \(settings)")
    }

    let again = try? ConfigFileEditor.apply(settings, to: edited, fileName: "clickwheel.yaml")
    require(again == edited, "editing twice with the same settings changed the file again:\n\(edited)\n---\n\(again ?? "refused")")
    return 0
}
