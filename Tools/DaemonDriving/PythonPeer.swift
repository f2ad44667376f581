import Foundation

/// A Python program beside a test's file, run against the real binaries: the independent peers
/// written from the published schemas.
public enum PythonPeer {
  /// Runs `script`, found beside the calling test's file, with `--concordd` and `--concord`; its
  /// exit status and everything it printed.
  public static func run(_ script: String, beside file: StaticString = #filePath) throws -> (status: Int32, output: String) {
    let path = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appending(path: script)
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

/// The repository's own files, for tests that read them (the README's commands, the tutorial's
/// code, the demo script, the starter package).
public enum Repository {
  /// The repository's root: two folders above this file.
  public static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
}
