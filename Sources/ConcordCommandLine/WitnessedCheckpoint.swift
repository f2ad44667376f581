import ConcordLog

/// A checkpoint as `concordd` writes it to its log output — `checkpoint seq=N head=HEX` — read
/// back from an operator's journal, where someone who can edit the home cannot rewrite it.
struct WitnessedCheckpoint: Equatable {
  let seq: Int64
  let head: [UInt8]

  /// Finds `seq=N` and `head=HEX` anywhere in `line`, so a whole journal line can be passed as
  /// it is (its time and label around them); nil when either is missing or malformed.
  init?(line: String) {
    var seq: Int64?
    var head: [UInt8]?
    for word in line.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
      if word.hasPrefix("seq=") { seq = Int64(word.dropFirst(4)) }
      if word.hasPrefix("head=") { head = [UInt8](hex: String(word.dropFirst(5))) }
    }
    guard let seq, seq >= 0, let head, head.count == 32 else { return nil }
    self.seq = seq
    self.head = head
  }
}
