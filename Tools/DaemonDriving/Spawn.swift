import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end with posix_spawn and waitpid. Foundation's Process waits for every
/// descendant to let go of a descriptor it shares, and the programs here start servers (tmux,
/// the daemon) that outlive them.
public enum Spawn {
  public enum Output {
    /// Standard output and error go to /dev/null.
    case discard
    /// Standard output is read through a pipe; only for programs that leave nothing running.
    case capture
    /// Standard output and error go to this file, read back at the end.
    case file(String)
  }

  @discardableResult
  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
    output: Output
  ) throws -> (status: Int32, output: String) {
    var pipe: [Int32] = [0, 0]
    guard Glibc.pipe(&pipe) == 0 else { throw DriveError("pipe failed") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    switch output {
    case .discard:
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    case .capture:
      posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    case let .file(path):
      posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    posix_spawn_file_actions_addclose(&actions, pipe[0])
    posix_spawn_file_actions_addclose(&actions, pipe[1])
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    close(pipe[1])
    defer { close(pipe[0]) }
    guard spawned == 0 else { throw DriveError("\(executable) could not start: \(spawned)") }
    var captured: [UInt8] = []
    if case .capture = output {
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress, $0.count) }
        if count <= 0 { break }
        captured += chunk[..<count]
      }
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    if case let .file(path) = output { captured = Array((try? Data(contentsOf: URL(filePath: path))) ?? Data()) }
    return ((status >> 8) & 0xff, String(decoding: captured, as: UTF8.self))
  }
}
