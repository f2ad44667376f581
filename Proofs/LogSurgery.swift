import Foundation
import GRDB

/// Changes made to a copy of a log, behind the daemon's back, to set up a check.
enum SnapshotRemoval {
  /// Deletes every snapshot, so the next boot replays the whole log.
  static func removeSnapshots(from log: URL) throws {
    let database = try DatabaseQueue(path: log.path)
    try database.write { try $0.execute(sql: "DELETE FROM snapshots") }
  }
}
