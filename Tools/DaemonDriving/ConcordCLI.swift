import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The real `concord` binary, run against a home as a person or a script would.
public enum ConcordCLI {
  public static var binary: URL {
    DaemonUnderTest.binary.deletingLastPathComponent().appending(path: "concord")
  }

  public struct Result {
    public var status: Int32
    public var output: String
    public var error: String
  }

  /// The test's environment, with the home and the app for `concord` (and a daemon it starts).
  public static func environment(home: URL, app: String) -> [String: String] {
    ProcessInfo.processInfo.environment.merging(["CONCORD_HOME": home.path, "CONCORD_APP": app]) { $1 }
  }

  /// Runs `concord ARGUMENTS` to its end, with `input` on standard input.
  @discardableResult
  ///
  /// `app` is the bundled app it speaks (CONCORD_APP): the sample app unless a test says.
  public static func run(_ arguments: [String], home: URL, input: String? = nil, app: String = "sample") throws -> Result {
    try runProgram(binary, arguments, environment: environment(home: home, app: app), input: input)
  }

  /// Runs `executable` to its end, with `input` on standard input; its output and error.
  public static func runProgram(
    _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, input: String? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    let error = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = stdin
    try process.run()
    // Write the input while reading the output: a child that answers as it reads fills its
    // output pipe and waits for it to be read, while this would wait on its full input pipe.
    let writer = Thread {
      if let input { try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    // Read both to their ends together: a full pipe would block the child.
    let errorData = LockedData()
    let reader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorData.isSet { usleep(1000) }
    return Result(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      error: String(decoding: errorData.value, as: UTF8.self))
  }
}

public final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data: Data?
  public func set(_ value: Data) { lock.withLock { data = value } }
  public var isSet: Bool { lock.withLock { data != nil } }
  public var value: Data { lock.withLock { data ?? Data() } }
}

/// A long-running `concord` (an attached `--json` window): write lines to it, read its lines.
public final class RunningCLI {
  public let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var buffer: [UInt8] = []
  private var errorFile = ""
  /// Every line read so far, for failure messages.
  private(set) var transcript: [String] = []

  /// What it wrote on standard error.
  public var errorOutput: String { (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "" }

  public init(_ arguments: [String], home: URL, app: String = "sample") throws {
    process.executableURL = ConcordCLI.binary
    process.arguments = arguments
    process.environment = ConcordCLI.environment(home: home, app: app)
    process.standardInput = input
    process.standardOutput = output
    // Its complaints go to a file beside the home, for the test's failure message.
    let errors = home.path + "-concord-\(UUID().uuidString.prefix(6)).stderr"
    _ = FileManager.default.createFile(atPath: errors, contents: nil)
    errorFile = errors
    process.standardError = FileHandle(forWritingAtPath: errors)
    try process.run()
  }

  public func send(_ line: String) {
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
  }

  public func closeInput() throws {
    try input.fileHandleForWriting.close()
  }

  /// The next line, or nil at the end of the output; throws after `timeout` seconds.
  public func readLine(timeout: Double = 10) throws -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    let fd = output.fileHandleForReading.fileDescriptor
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeFirst(newline + 1)
        transcript.append(line)
        return line
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else {
        throw DriveError("no line from concord within \(timeout) s; it said \(transcript) \(errorOutput)")
      }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count <= 0 { return nil }
      buffer += chunk[..<count]
    }
  }

  /// Reads lines until one contains all of `needles`.
  @discardableResult
  public func readLine(containing needles: String..., timeout: Double = 10) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      guard let line = try readLine(timeout: max(0.01, deadline.timeIntervalSinceNow)) else {
        throw DriveError("concord ended before a line with \(needles): \(errorOutput)")
      }
      if needles.allSatisfy(line.contains) { return line }
    }
  }

  public func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  deinit { stop() }
}
