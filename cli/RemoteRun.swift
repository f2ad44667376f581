import ConcordClient
import Foundation

/// A command that reads the log itself (`state`, `log export`, `log verify`, `log tail`), run
/// on the daemon's machine through ssh when a host is named: its output comes back here, to
/// standard output or a local file, and its exit code is the command's.
enum RemoteRun {
  /// Runs `concord ARGUMENTS` on `target`'s machine; writes what it prints to `output` (a
  /// local file, written whole) or to standard output.
  static func relay(_ arguments: [String], on target: SSHTarget, output: String? = nil) throws {
    let environment = ProcessInfo.processInfo.environment
    let command = SSHTransport.command(for: target, running: arguments, environment: environment)
    let process = Process()
    process.executableURL = URL(filePath: "/usr/bin/env")
    process.arguments = command
    var sink: OutputSink?
    if let output {
      sink = try OutputSink(path: output)
      let pipe = Pipe()
      process.standardOutput = pipe
      let errors = Pipe()
      process.standardError = errors
      try process.run()
      while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty { try sink?.write(data) }
      process.waitUntilExit()
      try finish(process, errors: errors.fileHandleForReading.readDataToEndOfFile(), target: target, sink: &sink)
      return
    }
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    try finish(process, errors: errors.fileHandleForReading.readDataToEndOfFile(), target: target, sink: &sink)
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
        message: "on \(target): " + line.replacingOccurrences(of: "concord: ", with: ""),
        code: ConcordExitCode(rawValue: status) ?? .failure)
    }
  }
}
