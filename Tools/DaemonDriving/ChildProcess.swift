import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program a driver runs beside itself — concordd, redis-server, the C reference daemon —
/// with its output kept in a file (a pipe nobody reads would block it).
public final class ChildProcess {
  public let process = Process()
  public let outputURL: URL

  /// - Parameter launch: run it now (the default), or leave that to ``launch()``.
  public init(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], outputIn directory: URL,
    launch: Bool = true
  ) throws {
    process.executableURL = URL(filePath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    outputURL = directory.appending(path: "\(URL(filePath: executable).lastPathComponent)-\(UUID().uuidString.prefix(6)).out")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    let output = try FileHandle(forWritingTo: outputURL)
    process.standardOutput = output
    process.standardError = output
    if launch { try process.run() }
  }

  /// Runs the program, once.
  public func launch() throws {
    guard !hasLaunched else { return }
    try process.run()
  }

  /// Whether the program was started (it may have exited since).
  public var hasLaunched: Bool { process.processIdentifier != 0 }

  public var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }

  /// Waits until `ready` holds (polled every millisecond), or fails after `timeout` seconds.
  public func wait(timeout: Double, for what: String, until ready: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !ready() {
      guard process.isRunning else { throw DriveError("\(what): the process exited: \(output)") }
      guard Date() < deadline else { throw DriveError("\(what): not ready after \(timeout) s: \(output)") }
      usleep(1000)
    }
  }

  /// SIGTERM, then waits for the exit.
  public func stop() {
    guard hasLaunched, process.isRunning else { return }
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
  }

  deinit { stop() }
}

/// Runs a program to its end and returns what it printed.
public func runToEnd(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> String {
  let process = Process()
  process.executableURL = URL(filePath: executable)
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = directory }
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let text = String(decoding: data, as: UTF8.self)
  guard process.terminationStatus == 0 else { throw DriveError("\(executable) \(arguments.joined(separator: " ")) failed: \(text)") }
  return text
}

/// The first executable named `name` on the PATH.
public func which(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}
