/// The entries a selection export discloses, and its description in words: what an
/// inspector's filter chose (`user=mallory scope=card:`). Every other entry of the range is
/// written as a hash-only stub, so the export still verifies as one signed chain.
///
/// ```swift
/// let chosen: Set<Int64> = [3, 7, 12]
/// try log.exportAudit(format: .jsonl, selection: AuditSelection("user=mallory") { chosen.contains($0.seq) }) {
///   print($0)
/// }
/// ```
public struct AuditSelection {
  /// What was chosen, in words: the header's `selection`.
  public let description: String
  /// Whether an entry is disclosed.
  public let discloses: (LogEntry) -> Bool

  /// A selection.
  ///
  /// - Parameters:
  ///   - description: what was chosen, in words.
  ///   - discloses: whether an entry is disclosed.
  public init(_ description: String, discloses: @escaping (LogEntry) -> Bool) {
    self.description = description
    self.discloses = discloses
  }
}
