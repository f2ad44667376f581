import ConcordJSON
import Foundation
import GRDB

extension ActionLog {
  /// Writes the entries from `from` through `through` (the end when nil) as an audit export, one
  /// line at a time to `write`: a header (log id, range, count, first and last time, public key),
  /// one record per entry, and a footer with the chain head signed by the log's key.
  ///
  /// An auditor verifies a JSONL export with the public key alone (``AuditExport/verify(lines:publicKey:)``);
  /// the format is described in `schema/audit-export.schema.json`.
  ///
  /// ```swift
  /// try log.exportAudit(format: .jsonl) { line in print(line) }
  /// ```
  ///
  /// A CSV export is a plain CSV file: its first line is the column names, then one row per
  /// entry. Its header and footer (the log id, the range, the public key, the signed chain head)
  /// go to `metadata` instead, as the JSONL export writes them, for a file beside the CSV: a CSV
  /// reader then meets nothing but rows.
  ///
  /// With `scope` (`board`, or `card:42`), only that scope's entries are disclosed; every other
  /// entry of the range is written as a hash-only stub (its seq, prev_hash and hash), so the
  /// export still verifies as one unbroken chain while showing nothing of what it hides. The
  /// header then names the scope, and its first and last times are those of the disclosed
  /// entries (a second pass over the range finds them).
  ///
  /// With `selection` instead (entries an inspector's filter chose), the same holds: the entries
  /// it discloses are written whole, the others as stubs, and the header's `selection` says in
  /// words which entries were chosen.
  public func exportAudit(
    format: AuditFormat, from: Int64 = 1, through: Int64? = nil, scope: String? = nil,
    selection: AuditSelection? = nil,
    metadata: (String) throws -> Void = { _ in }, to write: (String) throws -> Void
  ) throws {
    precondition(scope == nil || selection == nil, "an export discloses a scope or a selection, not both")
    // The daemon keeps scope names in NFC, and an entry is of the scope when the bytes are the
    // same: an auditor's tool compares bytes, not canonical equivalence.
    let scope = scope?.nfc
    func isDisclosed(_ entry: LogEntry) -> Bool {
      if let selection { return selection.discloses(entry) }
      return scope.map { entry.record.scope.utf8.elementsEqual($0.utf8) } ?? true
    }
    // One reading of the tail: appends may go on while the export runs.
    let end = lastSeq
    let first = max(1, from)
    let last = min(through ?? end, end)
    guard first <= end + 1, last >= first - 1 else {
      throw LogError.outOfRange(from: from, through: through, lastSeq: end)
    }
    let (summary, previous) = try reading {
      try database.read { db in
        let summary = try Row.fetchOne(
          db, sql: "SELECT count(*), min(at_ms), max(at_ms) FROM entries WHERE seq >= ? AND seq <= ?",
          arguments: [first, last])
        return (summary, try hash(before: first, db))
      }
    }
    let count: Int64 = summary?[0] ?? 0
    var firstTime: Int64? = summary?[1]
    var lastTime: Int64? = summary?[2]
    if scope != nil || selection != nil {
      // The scope is sealed inside each entry: the disclosed entries' times take a pass.
      (firstTime, lastTime) = (nil, nil)
      if last >= first {
        try forEachEntry(from: first, through: last) { entry in
          guard isDisclosed(entry) else { return }
          let at = entry.record.at.milliseconds
          (firstTime, lastTime) = (min(firstTime ?? at, at), max(lastTime ?? at, at))
        }
      }
    }
    var members: [(String, AuditText.JSONField)] = [
      ("type", .string("header")),
      ("format", .string(AuditExport.formatName)),
      ("log_id", .string(logID.hex)),
      ("from", .int(first)),
      ("to", .int(last)),
      ("count", .int(count)),
      ("first_time", firstTime.map { .string(AuditText.time(milliseconds: $0)) } ?? .null),
      ("last_time", lastTime.map { .string(AuditText.time(milliseconds: $0)) } ?? .null),
      ("public_key", .string(publicKey.hex)),
      ("prev_hash", .string(previous.hex)),
    ]
    // Only a scoped export names a scope: an unfiltered one keeps the bytes it always had.
    if let scope { members.insert(("scope", .string(scope)), at: 3) }
    if let selection { members.insert(("selection", .string(selection.description)), at: 3) }
    let header = AuditText.json(members)
    switch format {
    case .jsonl: try write(header)
    case .csv:
      try metadata(header)
      try write(AuditExport.csvColumns.joined(separator: ","))
    }
    var head = previous
    var headSeq = first - 1
    if last >= first {
      try forEachEntry(from: first, through: last) { entry in
        if isDisclosed(entry) {
          try write(AuditExport.line(for: entry, format: format))
        } else {
          try write(AuditExport.stubLine(for: entry, format: format))
        }
        head = entry.hash
        headSeq = entry.seq
      }
    }
    let signed = try signedCheckpoint(seq: headSeq, head: head)
    let footer = AuditText.json([
      "type": .string("footer"),
      "seq": .int(signed.seq),
      "chain_head": .string(signed.head.hex),
      "signature": .string(signed.signature.hex),
    ])
    try (format == .csv ? metadata : write)(footer)
  }
}
