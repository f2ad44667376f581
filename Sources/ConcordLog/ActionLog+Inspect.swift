import Foundation
import GRDB

extension ActionLog {
  /// The last seq the database holds now. ``lastSeq`` is the end as this log was opened (and as
  /// its own appends moved it); a reader beside a running daemon asks this to see what the
  /// daemon has appended since.
  ///
  /// ```swift
  /// let log = try ActionLog.open(at: path, key: key)
  /// // … the daemon appends …
  /// let end = try log.storedLastSeq()
  /// ```
  public func storedLastSeq() throws(LogError) -> Int64 {
    try reading {
      try database.read { db in try Int64.fetchOne(db, sql: "SELECT max(seq) FROM entries") ?? 0 }
    }
  }

  /// The first entry whose time is at or after `time`, or nil when every entry is older. The
  /// times are read in the clear, entry by entry as a binary search over seq: about twenty
  /// reads on a log of a million entries, whatever its size on disk.
  ///
  /// The daemon never gives an action an earlier time than the one before it, so a log it
  /// wrote is ordered by time as by seq; on a log written otherwise the answer is an entry at
  /// or after `time`, not necessarily the first.
  ///
  /// - Parameter time: the moment to find, to the millisecond.
  public func firstSeq(atOrAfter time: Date) throws(LogError) -> Int64? {
    // Entries are whole milliseconds: one at 100 ms is before 100.4 ms, so the instant is
    // rounded up, not to the nearest (from microseconds, so that 0.1 s is not 100.000…1 ms).
    let microseconds = Int64((time.timeIntervalSince1970 * 1_000_000).rounded())
    let wanted = microseconds >= 0 ? (microseconds + 999) / 1000 : -((-microseconds) / 1000)
    return try reading {
      try database.read { db -> Int64? in
        let end = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM entries") ?? 0
        guard end > 0 else { return nil }
        func time(of seq: Int64) throws -> Int64 {
          try Int64.fetchOne(db, sql: "SELECT at_ms FROM entries WHERE seq = ?", arguments: [seq]) ?? .max
        }
        var (low, high) = (Int64(1), end + 1)
        while low < high {
          let middle = low + (high - low) / 2
          if try time(of: middle) < wanted { low = middle + 1 } else { high = middle }
        }
        return low <= end ? low : nil
      }
    }
  }
}
