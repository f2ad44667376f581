import ConcordLog
import Foundation
import PropertyRandom
import Testing

/// The two-thread walk (`forEachEntry(preparing:)`, what a boot uses) gives the caller exactly
/// what the one-thread walk does — the same entries in the same order, then the same error —
/// whatever breaks: a tampered entry anywhere (before, at and past a batch's edge), the caller
/// stopping at any entry, `prepare` failing at any entry. The model is the one-thread walk.
@Suite struct PipelinedWalkProperties {
  struct Stop: Error, Equatable { let seq: Int64 }

  /// What a walk gave: the seqs the body took, and how it ended.
  struct Outcome: Equatable {
    var seqs: [Int64] = []
    var ending = "end"
  }

  static func ending(_ error: any Error) -> String {
    if let stop = error as? Stop { return "stopped at \(stop.seq)" }
    if let log = error as? LogError { return "log: \(log)" }
    return "other: \(error)"
  }

  @Test func theTwoThreadWalkGivesWhatTheOneThreadWalkGives() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    let count = 1_300
    for start in stride(from: 1, through: count, by: 100) {
      try log.append((start...min(start + 99, count)).map { record($0) })
    }
    var checked = 0
    for seed in PropertyRandom.seeds(from: 0x919E_0000, count: 12) {
      var random = PropertyRandom(seed: seed)
      // What goes wrong this time: nothing, the caller stops, prepare fails, or a row is spoiled.
      let at = Int64(random.pick([1, 2, 511, 512, 513, 1_024, 1_025, 1_299, 1_300, random.int(1...count)]))
      let fault = random.int(0...3)
      let from = Int64(random.pick([1, 1, 2, 600]))
      var spoiled: Data?
      if fault == 3 {
        spoiled = try fixture.rawValue("SELECT ciphertext FROM entries WHERE seq = \(at)")
        var bytes = [UInt8](spoiled!)
        bytes[bytes.count / 2] ^= 0x40
        try fixture.tamper("UPDATE entries SET ciphertext = ? WHERE seq = \(at)", arguments: [Data(bytes)])
      }
      let stopIn: (body: Bool, prepare: Bool) = (fault == 1, fault == 2)

      var model = Outcome()
      do {
        try log.forEachEntry(from: from) { entry in
          if stopIn.prepare, entry.seq == at { throw Stop(seq: at) }
          if stopIn.body, entry.seq == at { throw Stop(seq: at) }
          model.seqs.append(entry.seq)
        }
      } catch { model.ending = Self.ending(error) }

      var actual = Outcome()
      do {
        try log.forEachEntry(
          from: from,
          preparing: { entry in
            if stopIn.prepare, entry.seq == at { throw Stop(seq: at) }
            return (entry.seq, entry.record.action)
          }
        ) { seq, action in
          if stopIn.body, seq == at { throw Stop(seq: at) }
          #expect(action == record(Int(seq)).action)
          actual.seqs.append(seq)
        }
      } catch { actual.ending = Self.ending(error) }

      #expect(actual == model, "seed \(seed): fault \(fault) at \(at) from \(from)")
      checked += model.seqs.count
      if let spoiled {
        try fixture.tamper("UPDATE entries SET ciphertext = ? WHERE seq = \(at)", arguments: [spoiled])
      }
    }
    #expect(checked > 5_000)
  }
}
