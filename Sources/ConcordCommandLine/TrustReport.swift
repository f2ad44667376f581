import ConcordClient
import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation

/// The chain's trust in words, for the inspector: how far the log verifies, which checkpoints
/// are signed by its key, and whether this home has seen more of the log than it holds now.
enum TrustReport {
  /// The report's lines. Verifying reads every entry once.
  ///
  /// - Parameters:
  ///   - log: the log, opened with its key.
  ///   - home: the home whose outbox witnessed the log (the same home, when a window of it ran).
  static func lines(of log: ActionLog, home: ConcordHome? = nil) throws -> [String] {
    var lines: [String] = []
    let report = try log.verify()
    let end = try log.storedLastSeq()
    if let failure = report.failure {
      lines.append("✗ The chain verifies through entry \(max(0, failure.seq - 1)) of \(end), and breaks at \(failure).")
    } else {
      lines.append("✓ The chain verifies whole: entries 1 to \(report.verifiedEntries), every seal and link.")
    }
    lines += report.notes.map { "  note: \($0)" }
    let checkpoints = try log.checkpoints()
    let signed = checkpoints.filter { $0.isSigned(by: log.publicKey, logID: log.logID) }
    lines.append("")
    lines.append("Checkpoints: \(checkpoints.count), \(signed.count) signed by the log's key (\(log.publicKey.hex.prefix(16))…).")
    for checkpoint in checkpoints.suffix(10) {
      let mark = signed.contains(checkpoint) ? "✓ signed" : "✗ NOT signed by this key"
      lines.append("  seq \(checkpoint.seq)  head \(checkpoint.head.hex.prefix(16))…  \(mark)")
    }
    if checkpoints.count > 10 { lines.append("  (the \(checkpoints.count - 10) older ones are not listed)") }
    lines.append("")
    if let home, FileManager.default.fileExists(atPath: home.outbox.path), let witnessed = try? Outbox.open(home: home).witnessed() {
      let now = LogPosition(logID: log.logID.hex, seq: end)
      if let divergence = LogDivergence.between(witnessed: witnessed, daemon: now) {
        lines.append("✗ Rollback: \(divergence)")
      } else {
        lines.append("✓ No rollback: this home saw the log up to entry \(witnessed.seq), and it holds \(end).")
      }
    } else {
      lines.append("No window of this home has witnessed the log: pass the daemon's last `checkpoint seq=N head=HEX`")
      lines.append("line to `log verify --checkpoint` to catch a rollback of the whole home.")
    }
    return lines
  }
}
