import ConcordLog
import Foundation
import GRDB

/// A log in a fresh temporary directory, removed when the fixture goes.
final class LogFixture {
  let directory: URL
  var databaseURL: URL { directory.appending(path: "log.sqlite") }
  var keyURL: URL { directory.appending(path: "key") }

  init() {
    directory = FileManager.default.temporaryDirectory.appending(path: "concord-log-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  func open(options: ActionLog.Options = .init()) throws -> ActionLog {
    try ActionLog.open(at: databaseURL, key: .file(keyURL), options: options)
  }

  /// A raw connection, to play the attacker who edits the database behind the log's back.
  func tamper(_ sql: String, arguments: StatementArguments = []) throws {
    let queue = try DatabaseQueue(path: databaseURL.path)
    try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
    try queue.close()
  }

  /// Makes `url` unwritable — by mode, or for root (whom modes do not stop) with the immutable
  /// attribute — and returns what undoes it.
  func makeReadOnly(_ url: URL) throws -> () -> Void {
    guard geteuid() == 0 else {
      chmod(url.path, 0o400)
      return { chmod(url.path, 0o600) }
    }
    func chattr(_ flag: String) throws -> Int32 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
      process.arguments = [flag, url.path]
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus
    }
    guard try chattr("+i") == 0 else { throw CocoaError(.fileWriteNoPermission) }
    return { _ = try? chattr("-i") }
  }

  func rawValue(_ sql: String) throws -> Data? {
    let queue = try DatabaseQueue(path: databaseURL.path)
    defer { try? queue.close() }
    return try queue.read { db in try Data.fetchOne(db, sql: sql) }
  }
}

/// A record as the daemon would write it: alice's windows adding cards to the board.
func record(_ n: Int, client: String = "window-1", user: String = "alice", refused: Bool = false) -> LogRecord {
  LogRecord(
    client: client, cseq: Int64(n), at: Date(timeIntervalSince1970: 1_800_000_000 + Double(n) / 10),
    user: user, scope: "board",
    action: #"{"addCard":{"title":"Card number \#(n)","column":"todo"}}"#,
    outcome: refused ? .refused(reason: "the column todo is full") : .applied,
    app: "Workspace", appVersion: 1)
}
