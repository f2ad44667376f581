import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `concordd` (the build beside the running program) on a home in a temporary directory: the
/// one daemon driver of the tests, the proof suites and the benchmarks.
///
/// Made, it is ready to run; ``start(timeout:)`` (or ``waitUntilServing(timeout:)``) runs it and
/// waits until it welcomes a connection. Its output goes to a file (``output``).
///
/// ```swift
/// let daemon = try DaemonUnderTest(app: "workspace").start()
/// defer { daemon.stopAndRemoveHome() }
/// let window = try LineSocket.window(of: daemon, attachedTo: "board")
/// ```
public final class DaemonUnderTest: @unchecked Sendable {
  // @unchecked: a test makes, starts and stops it on one thread; other threads only read
  // `home` and `socketPath`.
  public let home: URL
  public let child: ChildProcess
  public var socketPath: String { ConcordHome(home).socket.path }
  public var process: Process { child.process }

  /// The `concordd` built beside the running program (a test bundle, a benchmark, a suite).
  public static var binary: URL {
    let running = Bundle.main.executableURL ?? URL(filePath: CommandLine.arguments[0])
    let directory = running.deletingLastPathComponent()
    for candidate in [directory, directory.deletingLastPathComponent()] {
      let url = candidate.appending(path: "concordd")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return URL(filePath: ".build/debug/concordd")
  }

  /// A daemon ready to run on `home`, hosting the bundled `app`; `environment` is added to this
  /// process's.
  ///
  /// - Parameters:
  ///   - outputIn: where its output file goes: beside the home unless named.
  ///   - binary: the daemon to run: the build beside this program unless another is named
  ///     (another revision's, to compare).
  public init(
    home: URL = DaemonUnderTest.makeHome(), logLevel: String = "notice", arguments: [String] = [],
    app: String = "sample", environment: [String: String] = [:], outputIn directory: URL? = nil,
    binary: String = DaemonUnderTest.binary.path
  ) throws {
    self.home = home
    child = try ChildProcess(
      binary, ["--home", home.path, "--log-level", logLevel, "--app", app] + arguments,
      environment: environment, outputIn: directory ?? home.deletingLastPathComponent(), launch: false)
  }

  deinit {
    if child.hasLaunched, child.process.isRunning { kill9() }
  }

  /// Runs the daemon and waits until it welcomes a connection.
  @discardableResult
  public func start(timeout: Double = 20) throws -> DaemonUnderTest {
    try waitUntilServing(timeout: timeout)
    return self
  }

  /// Runs the daemon unless it runs already, and waits until it answers a `hello` with its
  /// `welcome` (the probe says it is no person's window: no presence).
  public func waitUntilServing(timeout: Double = 120) throws {
    try child.launch()
    try child.wait(timeout: timeout, for: "concordd") {
      guard let socket = try? LineSocket(path: socketPath) else { return false }
      guard (try? socket.send(.hello(protocolVersion: WireProtocol.version, client: nil, presence: false))) != nil else {
        return false
      }
      return (try? socket.expectLine(timeout: timeout))?.contains("welcome") ?? false
    }
  }

  public var pid: pid_t { child.process.processIdentifier }
  public var isRunning: Bool { child.hasLaunched && child.process.isRunning }
  /// What the daemon wrote to its standard output and error.
  public var output: String { child.output }

  /// kill -9, then waits for the exit.
  public func kill9() {
    guard isRunning else { return }
    kill(pid, SIGKILL)
    child.process.waitUntilExit()
  }

  /// SIGTERM, then waits for the exit.
  public func stop() { child.stop() }

  /// SIGTERM, then the exit status.
  public func terminate() -> Int32 {
    stop()
    return child.hasLaunched ? child.process.terminationStatus : 0
  }

  /// SIGTERM, then the home and the output removed: the end of a test's daemon.
  public func stopAndRemoveHome() {
    stop()
    removeHome()
  }

  public func removeHome() {
    try? FileManager.default.removeItem(at: home)
    try? FileManager.default.removeItem(at: child.outputURL)
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

  /// A fresh home (mode 0700) under /tmp, short enough for a socket path.
  public static func makeHome() -> URL {
    // A directory under /tmp that cannot be made means no test can run: stop at once.
    try! makeHome(URL(filePath: "/tmp/cd-\(UUID().uuidString.prefix(8))"))
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
