import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `concordd` (the build beside the running program) on a home in a temporary directory.
public final class DaemonUnderTest {
  public let home: URL
  public let child: ChildProcess
  public var socketPath: String { ConcordHome(home).socket.path }

  public static var binary: String {
    let directory = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
    return directory.appending(path: "concordd").path
  }

  /// Starts the daemon on `home` with the sample app; `environment` is added to this process's.
  ///
  /// - Parameter binary: the daemon to run: the build beside this program unless another is
  ///   named (another revision's, to compare).
  public init(
    home: URL, logLevel: String = "notice", arguments: [String] = [], environment: [String: String] = [:],
    outputIn directory: URL, binary: String = DaemonUnderTest.binary
  ) throws {
    self.home = home
    child = try ChildProcess(
      binary, ["--home", home.path, "--log-level", logLevel, "--app", "sample"] + arguments,
      environment: environment, outputIn: directory)
  }

  public var pid: pid_t { child.process.processIdentifier }
  public var isRunning: Bool { child.process.isRunning }

  /// kill -9, then waits for the exit.
  public func kill9() {
    guard child.process.isRunning else { return }
    kill(pid, SIGKILL)
    child.process.waitUntilExit()
  }

  /// The daemon's resident memory in bytes (VmRSS), or nil once it has exited.
  public var residentBytes: Int? { Self.residentBytes(of: pid) }

  /// The resident memory (VmRSS) of process `pid` in bytes, or nil when it is not running.
  public static func residentBytes(of pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return nil }
    return kilobytes * 1024
  }

  /// How many file descriptors the daemon holds open, or nil once it has exited.
  public var openFileCount: Int? {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
  }

  /// Waits until the daemon answers a `hello` with its `welcome`.
  public func waitUntilServing(timeout: Double = 120) throws {
    try child.wait(timeout: timeout, for: "concordd") {
      guard let socket = try? LineSocket(path: socketPath) else { return false }
      guard (try? socket.write(LineSocket.hello)) != nil else { return false }
      return (try? socket.readLine(timeout: timeout))?.contains("welcome") ?? false
    }
  }

  public func stop() { child.stop() }

  /// A fresh home, short enough for a socket path.
  public static func makeHome() throws -> URL {
    try makeHome(URL(filePath: "/tmp/cdb-\(UUID().uuidString.prefix(8))"))
  }

  /// A home named `name` inside `directory` (a work directory that also holds the outputs).
  public static func makeHome(named name: String, in directory: URL) throws -> URL {
    try makeHome(directory.appending(path: name))
  }

  private static func makeHome(_ url: URL) throws -> URL {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return url
  }
}
