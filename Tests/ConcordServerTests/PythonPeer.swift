import DaemonDriving
import Foundation

/// A Python program beside this file, run against the real binaries: the independent peers
/// written from the published schemas.
enum PythonPeer {
  /// Runs `script` with `--concordd` and `--concord`; its exit status and everything it printed.
  static func run(_ script: String) throws -> (status: Int32, output: String) {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: script)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", path.path, "--concordd", DaemonUnderTest.binary.path, "--concord", ConcordCLI.binary.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }
}
