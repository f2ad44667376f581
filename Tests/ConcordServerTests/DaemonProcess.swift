import ConcordWire
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real `concordd` binary, started on a home in a fresh temporary directory.
final class DaemonProcess: @unchecked Sendable {
  let home: URL
  let process = Process()
  /// The daemon's standard error goes to a file: a pipe nobody reads would fill and block it.
  let stderrURL: URL
  var socketPath: String { home.appending(path: "concordd.sock").path }

  /// The directory of the test binary holds the package's other products too.
  static var binary: URL {
    let directory = Bundle.main.executableURL!.deletingLastPathComponent()
    for candidate in [directory, directory.deletingLastPathComponent()] {
      let url = candidate.appending(path: "concordd")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return URL(filePath: ".build/debug/concordd")
  }

  /// A fresh home, short enough for a socket path.
  static func makeHome() -> URL {
    let url = URL(filePath: "/tmp").appending(path: "cd-\(UUID().uuidString.prefix(8))")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return url
  }

  /// - Parameter app: the bundled app it hosts: the sample app unless a test says.
  init(home: URL = DaemonProcess.makeHome(), arguments: [String] = [], app: String = "sample") {
    self.home = home
    process.executableURL = Self.binary
    process.arguments = ["--home", home.path, "--log-level", "notice", "--app", app] + arguments
    stderrURL = URL(filePath: home.path + "-\(UUID().uuidString.prefix(8)).stderr")
    _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
    process.standardError = try? FileHandle(forWritingTo: stderrURL)
    process.standardOutput = FileHandle.nullDevice
  }

  /// Starts the daemon and waits until it answers on its socket.
  @discardableResult
  func start() throws -> DaemonProcess {
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if let peer = try? RawPeer(path: socketPath) {
        peer.close()
        return self
      }
      if !process.isRunning { break }
      usleep(20_000)
    }
    throw DaemonTestError("concordd did not start: \(errorOutput())")
  }

  func errorOutput() -> String {
    (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
  }

  func kill9() {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// SIGTERM, then the exit status.
  func terminate() -> Int32 {
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    return process.terminationStatus
  }

  deinit {
    if process.isRunning { kill9() }
  }

  /// SIGTERM, then the home removed: the end of a test's daemon.
  func stopAndRemoveHome() {
    _ = terminate()
    removeHome()
  }

  func removeHome() {
    try? FileManager.default.removeItem(at: home)
    try? FileManager.default.removeItem(at: stderrURL)
  }
}

struct DaemonTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
