import ConcordClient
import ConcordDaemonCommand
import Foundation

/// A command that reads the log itself (`state`, `log export`, `log verify`, `log tail`), run
/// on the daemon's machine through ssh when a host is named: its output comes back here, to
/// standard output or a local file, and its exit code is the command's.
enum RemoteRun {
  /// Runs `NAME ARGUMENTS` (this program, ``ProgramName``) on `target`'s machine; writes what it prints to `output` (a
  /// local file, written whole) or to standard output. With `terminal`, the command gets a
  /// terminal there joined to this one, and draws on it (the inspector's full-screen window).
  static func relay(_ arguments: [String], on target: SSHTarget, output: String? = nil, terminal: Bool = false) throws {
    let process = Process()
    process.executableURL = URL(filePath: "/usr/bin/env")
    process.arguments = SSHTransport.command(
      for: target, running: arguments, environment: ProcessInfo.processInfo.environment, terminal: terminal)
    // What ssh and the command say, in a file: a pipe read only at the end could fill and stall
    // them both.
    let errors = FileManager.default.temporaryDirectory.appending(path: "concord-remote-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil, attributes: [.posixPermissions: 0o600])
    defer { try? FileManager.default.removeItem(at: errors) }
    // A terminal's window draws on it, errors and all; otherwise they are kept to be told.
    if !terminal { process.standardError = try FileHandle(forWritingTo: errors) }
    var sink = try output.map { try OutputSink(path: $0) }
    let pipe = Pipe()
    // Without a local file, standard output goes straight to this one's.
    if sink != nil { process.standardOutput = pipe }
    try process.run()
    if sink != nil {
      while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty { try sink?.write(data) }
    }
    process.waitUntilExit()
    try finish(process, errors: (try? Data(contentsOf: errors)) ?? Data(), target: target, sink: &sink)
  }

  private static func finish(_ process: Process, errors: Data, target: SSHTarget, sink: inout OutputSink?) throws {
    let said = String(decoding: errors, as: UTF8.self)
    let status = process.terminationStatus
    switch status {
    case 0:
      FileHandle.standardError.write(errors)
      try sink?.close()
    case 255, 126, 127:
      sink?.discard()
      throw CommandFailure(SSHTransport.failure(status: status, said: said, target: target))
    default:
      sink?.discard()
      // The command's own words and exit code, as on the server.
      let line = said.split(separator: "\n").last.map(String.init) ?? "the command failed on \(target)"
      throw CommandFailure(
        message: "on \(target): " + line.replacingOccurrences(of: "\(ConcordProgram.running.name): ", with: ""),
        code: ConcordExitCode(rawValue: status) ?? .failure)
    }
  }
}
