import ConcordLog
import ConcordWire
import Foundation
import GRDB

extension Outbox {
  /// The lines typed in the windows of a scope (`board`, `card`, `chat`: by the scope's name,
  /// without its parameter), oldest first: a window's ↑ and Ctrl-R. Sealed like everything in
  /// the outbox; at most ``historyLimit`` lines.
  ///
  /// ```swift
  /// try outbox.recordHistory("move 2 done", in: "board")
  /// try outbox.history(of: "board")   // […, "move 2 done"]
  /// ```
  public func history(of scope: String) throws(ClientError) -> [String] {
    let tag = historyTag(scope)
    let sealed = try reading { db in try Data.fetchOne(db, sql: "SELECT sealed FROM history WHERE tag = ?", arguments: [tag]) }
    guard let sealed, let opened = sealer.open([UInt8](sealed), associatedData: Array("history/\(tag)".utf8)),
      case let .array(lines)? = try? JSONValue(parsing: String(decoding: opened, as: UTF8.self))
    else { return [] }
    return lines.compactMap { if case let .string(line) = $0 { line } else { nil } }
  }

  /// Adds `line` to the history of `scope`, dropping the oldest beyond ``historyLimit``.
  public func recordHistory(_ line: String, in scope: String) throws(ClientError) {
    var lines = try history(of: scope)
    guard lines.last != line else { return }
    lines.append(line)
    let kept = JSONValue.array(lines.suffix(Self.historyLimit).map { .string($0) })
    let tag = historyTag(scope)
    let sealed = sealer.seal(Array(kept.jsonText.utf8), associatedData: Array("history/\(tag)".utf8))
    // Not synced: a line of history is worth no fsync.
    try access(synced: false) { db in
      try db.execute(sql: "INSERT OR REPLACE INTO history (tag, sealed) VALUES (?, ?)", arguments: [tag, Data(sealed)])
    }
  }

  /// How many lines a scope's history keeps.
  public static let historyLimit = 500

  private func historyTag(_ scope: String) -> String { sealer.tag("history:" + scope.nfc) }
}
