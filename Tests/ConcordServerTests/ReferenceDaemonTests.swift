import DaemonDriving
import Foundation
import GRDB
import Testing

/// The C reference the daemon benchmark measures concordd against (Benchmarks/Reference) builds
/// from this repository alone and keeps its own promise: an answer only for what its log holds,
/// and, in the mode that compares like with like, an update to every connection after each
/// commit.
@Suite(.serialized) struct ReferenceDaemonTests {
  struct Run {
    var acks = 0
    var updates = 0
    var rows = 0
  }

  /// Builds the reference, runs `ref_daemon` (with `updates` or without) under `ref_load` with
  /// `connections` for half a second, stops it, and counts what its log holds.
  static func run(connections: Int, updates: Bool) throws -> Run {
    let work = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: work) }
    let build = work.appending(path: "reference")
    let built = try Spawn.run(Repository.root.appending(path: "scripts/build-reference.sh").path, [build.path], output: .capture)
    #expect(built.status == 0, "\(built.output)")
    let socket = work.appending(path: "ref.sock").path
    let database = work.appending(path: "ref.sqlite")
    let daemon = try ChildProcess(
      build.appending(path: "ref_daemon").path, [socket, database.path, "FULL"] + (updates ? ["updates"] : []), outputIn: work)
    try daemon.wait(timeout: 10, for: "ref_daemon") { FileManager.default.fileExists(atPath: socket) }
    let load = try runToEnd(build.appending(path: "ref_load").path, [socket, "\(connections)", "0.5", "200"])
    daemon.stop()
    func value(_ key: String) -> Int {
      guard let range = load.range(of: " \(key)=") else { return -1 }
      return Int(load[range.upperBound...].prefix { $0.isNumber }) ?? -1
    }
    let rows = try DatabaseQueue(path: database.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM log") ?? 0 }
    return Run(acks: value("acks"), updates: value("updates"), rows: rows)
  }

  @Test func itAnswersOnlyWhatItsLogHolds() throws {
    let run = try Self.run(connections: 3, updates: false)
    // Each connection has at most one request the load stopped waiting for.
    #expect(run.acks > 100 && run.rows >= run.acks && run.rows <= run.acks + 3, "\(run)")
    #expect(run.updates == 0)
  }

  @Test func withUpdatesEveryConnectionHearsOfEveryCommit() throws {
    let run = try Self.run(connections: 3, updates: true)
    #expect(run.acks > 100 && run.rows >= run.acks && run.rows <= run.acks + 3, "\(run)")
    // A commit holds at most one request per connection and is told to all three: at least as
    // many updates as answers (but for the last commit's, unread when the load stopped).
    #expect(run.updates + 3 >= run.acks, "\(run)")
  }
}
