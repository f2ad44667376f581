import Foundation

/// A `concordd` (the release build beside this benchmark) on a home in a temporary directory.
final class DaemonUnderTest {
  let home: URL
  let child: ChildProcess
  var socketPath: String { home.appending(path: "concordd.sock").path }

  static var binary: String {
    let directory = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
    return directory.appending(path: "concordd").path
  }

  /// Starts the daemon; `ready` returns once it has answered a `hello`.
  init(home: URL, logLevel: String = "notice", outputIn directory: URL) throws {
    self.home = home
    child = try ChildProcess(Self.binary, ["--home", home.path, "--log-level", logLevel, "--app", "sample"], outputIn: directory)
  }

  /// Waits until the daemon answers a `hello` with its `welcome`.
  func waitUntilServing(timeout: Double = 120) throws {
    try child.wait(timeout: timeout, for: "concordd") {
      guard let socket = try? LineSocket(path: socketPath) else { return false }
      guard (try? socket.write(#"{"type":"hello","protocol":1}"# + "\n")) != nil else { return false }
      return (try? socket.readLine(timeout: timeout))?.contains("welcome") ?? false
    }
  }

  func stop() { child.stop() }

  /// A fresh home, short enough for a socket path.
  static func makeHome() throws -> URL {
    let url = URL(filePath: "/tmp/cdb-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return url
  }
}
