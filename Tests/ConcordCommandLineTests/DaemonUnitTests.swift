import DaemonDriving
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The systemd user unit shipped in `daemon/`, as a server's administrator installs it: systemd
/// reads it without a complaint, and the daemon it starts is the one `concord daemon status` and
/// `concord daemon stop` find in the account's default home, stopping with the clean exit that
/// `Restart=on-failure` leaves stopped.
@Suite struct DaemonUnitTests {
  static let unit = Repository.root.appending(path: "daemon/concordd.service")

  /// The unit's text with its `ExecStart` naming this build's concordd instead of
  /// `/usr/local/bin/concordd`, where the README installs it.
  static func unitForThisBuild() throws -> String {
    try String(contentsOf: unit, encoding: .utf8)
      .replacingOccurrences(of: "/usr/local/bin/concordd", with: DaemonUnderTest.binary.path)
  }

  /// The value of the unit's `KEY=` line in its `[Service]` section.
  static func setting(_ key: String, in text: String) -> String? {
    text.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
  }

  /// `systemd-analyze verify --user` on `text`: what it said, and its status.
  static func verify(_ text: String) throws -> ConcordCLI.Result {
    guard let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: FileManager.default.isExecutableFile)
    else { throw DriveError("no systemd-analyze: scripts/test.sh installs systemd") }
    let directory = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appending(path: "concordd.service")
    try Data(text.utf8).write(to: file)
    // It needs a runtime directory to set up its manager, even when only reading a unit.
    let environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": directory.path]) { $1 }
    return try ConcordCLI.runProgram(URL(filePath: analyze), ["verify", "--user", file.path], environment: environment)
  }

  @Test func systemdReadsTheUnitWithoutAComplaint() throws {
    let read = try Self.verify(try Self.unitForThisBuild())
    #expect(read.status == 0 && read.error.isEmpty && read.output.isEmpty, "\(read.status): \(read.error)\(read.output)")

    // The check can fail: a setting systemd does not know, or a daemon that is not there, is said.
    let misspelt = try Self.verify(try Self.unitForThisBuild().replacingOccurrences(of: "Restart=on-failure", with: "Restart=on-fail"))
    #expect(misspelt.error.contains("restart"), "\(misspelt.error)")
    let missing = try Self.verify(try Self.unitForThisBuild().replacingOccurrences(of: DaemonUnderTest.binary.path, with: "/nonexistent/concordd"))
    #expect(missing.status != 0 && missing.error.contains("not executable"), "\(missing.error)")
  }

  @Test func theDaemonItStartsIsTheOneConcordStatusesAndStops() throws {
    let text = try Self.unitForThisBuild()
    // A crash restarts it; `concord daemon stop` must give the clean exit that does not.
    #expect(Self.setting("Restart", in: text) == "on-failure")
    let start = try #require(Self.setting("ExecStart", in: text)).split(separator: " ").map(String.init)

    // As systemd runs a user service: the account's HOME, no CONCORD_HOME and no app named, so
    // the daemon and `concord` must agree on the default home and app by themselves.
    let account = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: account) }
    var environment = ProcessInfo.processInfo.environment
    for name in ["CONCORD_HOME", "CONCORD_APP", "XDG_STATE_HOME", "CONCORD_HOST"] { environment[name] = nil }
    environment["HOME"] = account.path
    let daemon = Process()
    daemon.executableURL = URL(filePath: start[0])
    daemon.arguments = Array(start.dropFirst())
    daemon.environment = environment
    daemon.standardOutput = FileHandle.nullDevice
    daemon.standardError = FileHandle.nullDevice
    try daemon.run()
    defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }

    let concord = { (arguments: [String]) in try ConcordCLI.runProgram(ConcordCLI.binary, arguments, environment: environment) }
    let deadline = Date().addingTimeInterval(30)
    var status = try concord(["daemon", "status"])
    while status.status != 0 && Date() < deadline && daemon.isRunning {
      usleep(50_000)
      status = try concord(["daemon", "status"])
    }
    #expect(status.status == 0 && status.output.contains("pid \(daemon.processIdentifier)"), "\(status.output)\(status.error)")
    #expect(FileManager.default.fileExists(atPath: account.appending(path: ".local/state/concord/concordd.sock").path))

    let stop = try concord(["daemon", "stop"])
    #expect(stop.status == 0, "\(stop.error)")
    daemon.waitUntilExit()
    #expect(daemon.terminationReason == .exit && daemon.terminationStatus == 0, "exit \(daemon.terminationStatus)")
    #expect(try concord(["daemon", "status"]).status == 3)
  }
}
