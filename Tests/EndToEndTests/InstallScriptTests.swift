import ClickWheelTestKit
import Foundation
import Testing

/// `contrib/install.sh --dry-run` and the systemd units it installs: what the script would do, read
/// from its output, and the units checked key by key and by `systemd-analyze verify` where it exists.
@Suite struct InstallScriptTests {
    static let root = TerminalDemoTests.root.path

    func dryRun(_ args: [String], sudoUser: String? = nil) throws -> ChildProcess.Result {
        var env = ProcessInfo.processInfo.environment
        env["SUDO_USER"] = sudoUser
        return try ChildProcess.run("bash", [Self.root + "/contrib/install.sh", "--dry-run"] + args, environment: env)
    }

    @Test func theSystemInstallSaysEveryStepAndDoesNothing() throws {
        let r = try dryRun([])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        // Only commands it would run (+) and things found in place (=): nothing was done.
        #expect(lines.allSatisfy { $0.hasPrefix("+ ") || $0.hasPrefix("= ") }, "\(lines)")
        for step in [
            "+ bash contrib/ci/install-deps.sh --runtime",
            "+ swift build -c release --product clickwheel",
            "+ install -D -m 0755 .build/release/clickwheel /usr/local/bin/clickwheel.new",
            "+ mv -f /usr/local/bin/clickwheel.new /usr/local/bin/clickwheel",
            "+ install -D -m 0644 contrib/raspberrypi/71-clickwheel.rules /etc/udev/rules.d/71-clickwheel.rules",
            "+ install -D -m 0644 contrib/systemd/clickwheel.service /etc/systemd/system/clickwheel.service",
            "+ systemctl daemon-reload",
            "+ systemctl enable clickwheel.service",
            "+ systemctl restart clickwheel.service",
        ] {
            #expect(lines.contains(step), "missing: \(step)\n\(r.stdout)")
        }
        let hasUser = (try? ChildProcess.run("getent", ["passwd", "clickwheel"]).status) == 0
        #expect(
            lines.contains {
                hasUser
                    ? $0 == "= user clickwheel exists"
                    : $0.hasPrefix("+ useradd --system") && $0.hasSuffix(" clickwheel")
            })
        #expect(
            lines.contains { $0.hasPrefix("+ usermod -aG ") }
                || lines.contains("= user clickwheel is in groups input audio i2c"))
        let hasConfig = FileManager.default.fileExists(atPath: "/etc/clickwheel/clickwheel.yaml")
        #expect(
            lines.contains(
                hasConfig
                    ? "= /etc/clickwheel/clickwheel.yaml exists: kept"
                    : "+ install -D -m 0644 contrib/clickwheel.example.yaml /etc/clickwheel/clickwheel.yaml"))
        // Settings → Wheel saves into the configuration from the service: its group may write there.
        #expect(
            lines.contains("+ chgrp clickwheel /etc/clickwheel /etc/clickwheel/clickwheel.yaml")
                && lines.contains("+ chmod 2775 /etc/clickwheel")
                || lines.contains("= /etc/clickwheel is writable by group clickwheel"), "\(lines)")
        #expect(!lines.contains { $0.contains("systemd/user") || $0.contains("linger") })
    }

    @Test func theUserInstallEnablesTheUserUnitForTheSudoUser() throws {
        let r = try dryRun(["--user", "--no-build"], sudoUser: "nobody")
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        for step in [
            "+ install -D -m 0644 contrib/systemd/clickwheel-user.service /etc/systemd/user/clickwheel.service",
            "+ systemctl --global enable clickwheel.service",
            "+ loginctl enable-linger nobody",
        ] {
            #expect(lines.contains(step), "missing: \(step)\n\(r.stdout)")
        }
        #expect(
            !lines.contains {
                $0.contains("useradd") || $0.contains("swift build") || $0.contains("/etc/systemd/system/")
            })
        #expect(
            lines.contains { $0.hasPrefix("+ usermod -aG ") && $0.hasSuffix(" nobody") }
                || lines.contains { $0.hasPrefix("= user nobody is in groups") })
    }

    @Test func aWrongOptionIsAUsageError() throws {
        let r = try dryRun(["--sytem"])
        #expect(r.status == 64 && r.stderr.contains("unknown option '--sytem'"))
    }

    /// The `Key=value` lines of a unit file, by section ("Service.User").
    func keys(_ file: String) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        var section = ""
        for line in try String(contentsOfFile: Self.root + "/contrib/systemd/" + file, encoding: .utf8).split(
            separator: "\n")
        {
            if line.hasPrefix("[") { section = String(line.dropFirst().dropLast()) }
            guard !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
            out["\(section).\(line[..<eq])", default: []].append(String(line[line.index(after: eq)...]))
        }
        return out
    }

    @Test func theSystemUnitRunsAsItsOwnUserWithStateRuntimeAndDeviceAccess() throws {
        let k = try keys("clickwheel.service")
        #expect(k["Service.ExecStart"] == ["/usr/local/bin/clickwheel run"])
        #expect(k["Service.User"] == ["clickwheel"])
        #expect(Set(k["Service.SupplementaryGroups"]?.first?.split(separator: " ") ?? []) == ["input", "audio", "i2c"])
        #expect(k["Service.StateDirectory"] == ["clickwheel"] && k["Service.RuntimeDirectory"] == ["clickwheel"])
        #expect(k["Service.Restart"] == ["on-failure"])
        #expect(k["Service.Environment"] == ["XDG_DATA_HOME=/var/lib"], "the database goes to /var/lib/clickwheel")
        // Hardened, yet the input devices and I2C buses stay reachable.
        #expect(k["Service.NoNewPrivileges"] == ["yes"] && k["Service.ProtectSystem"] == ["strict"])
        #expect(k["Service.ReadWritePaths"] == ["-/etc/clickwheel"], "Settings → Wheel saves into the configuration")
        #expect(k["Service.DevicePolicy"] == ["closed"])
        #expect(Set(k["Service.DeviceAllow"] ?? []) == ["char-input rw", "char-i2c rw"])
        #expect(k["Service.PrivateDevices"] == nil, "PrivateDevices would hide /dev/input and /dev/i2c-*")
        #expect(k["Install.WantedBy"] == ["multi-user.target"])
    }

    @Test func theUserUnitRunsInTheSession() throws {
        let k = try keys("clickwheel-user.service")
        #expect(k["Service.ExecStart"] == ["/usr/local/bin/clickwheel run"])
        #expect(k["Service.User"] == nil && k["Service.Restart"] == ["on-failure"])
        #expect(k["Install.WantedBy"] == ["default.target"])
    }

    @Test(arguments: ["clickwheel.service", "clickwheel-user.service"])
    func systemdAnalyzeFindsNothingToSay(unit: String) throws {
        guard
            let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(
                where: FileManager.default.isExecutableFile)
        else {
            return  // not installed here: the key checks above stand alone
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: dir) }
        // verify wants ExecStart to exist: point it at the binary just built.
        let text = try String(contentsOfFile: Self.root + "/contrib/systemd/" + unit, encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/clickwheel", with: TerminalDemoTests.binary)
        let copy = dir.appendingPathComponent(unit)
        try text.write(to: copy, atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = dir.path
        let user = unit.contains("user") ? ["--user"] : []
        let r = try ChildProcess.run(analyze, user + ["verify", copy.path], environment: env)
        #expect(
            r.status == 0 && r.stdout.isEmpty && r.stderr.isEmpty,
            "systemd-analyze verify \(unit):\n\(r.stdout)\(r.stderr)")
    }
}
