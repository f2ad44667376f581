import ConcordDaemonCommand
import ConcordLog
import ConcordReplay
import Foundation

/// `inspect --export FILE`: the entries a filter lets through, as an audit export that
/// discloses them alone and still proves the chain whole — every other entry of the range is a
/// hash-only stub, and the header says which selection it is.
enum SelectionExport {
  /// Writes the export to `path` (`-` for standard output), and says on standard error how many
  /// entries it disclosed.
  ///
  /// - Parameters:
  ///   - log: the log.
  ///   - inspector: the app's inspection (the filter's text is matched against its words too).
  ///   - filter: which entries to disclose.
  ///   - from: the range's first entry.
  ///   - through: its last (the end when nil).
  ///   - path: the file to write, whole (`-`: standard output).
  static func write(
    from log: ActionLog, inspector: LogInspector, filter: EntryFilter, from: Int64, through: Int64?, to path: String
  ) throws {
    var disclosed = Set<Int64>()
    try inspector.entries(log, from, through, filter) { entry in
      disclosed.insert(entry.seq)
      return true
    }
    var sink = try OutputSink(path: path == "-" ? nil : path)
    do {
      let selection = AuditSelection(filter.summary) { disclosed.contains($0.seq) }
      try log.exportAudit(format: .jsonl, from: from, through: through, selection: selection) { line in
        try sink.write(Data((line + "\n").utf8))
      }
      try sink.close()
    } catch {
      sink.discard()
      throw error
    }
    FileHandle.standardError.write(
      Data("exported \(disclosed.count) entr\(disclosed.count == 1 ? "y" : "ies") (\(filter.summary)), the rest of the range as stubs\(path == "-" ? "" : ", to \(path)")\n".utf8))
  }
}
