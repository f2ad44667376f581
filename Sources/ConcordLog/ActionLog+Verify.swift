import Foundation
import GRDB

/// What ``ActionLog/verify(progress:)`` found.
public struct VerificationReport: Sendable, Equatable {
  /// How a log can be broken.
  public enum Problem: Sendable, Equatable, CustomStringConvertible {
    /// The entry's seal does not open: a byte changed, or the row was moved or spliced in.
    case badSeal
    /// The entry opens but its chain hash does not follow from the one before.
    case brokenChain
    /// The entry is missing: the seqs jump from `seq - 1` to `next`.
    case gap(next: Int64)
    /// A checkpoint vouches for entries the log no longer has: its tail was cut off.
    case truncatedTail(lastSeq: Int64)
    /// A checkpoint's signature is not the log's, or it signs a head the log does not have.
    case badCheckpoint(reason: String)
    /// The log has entries but no checkpoint file beside it: whether entries after `lastSeq`
    /// were cut off cannot be told. A log has the file from its creation on, so it was removed.
    case noCheckpointFile(path: String, lastSeq: Int64)

    public var description: String {
      switch self {
      case .badSeal: return "bad seal: the entry was altered, moved or spliced in"
      case .brokenChain: return "broken chain: the entry does not follow from the one before"
      case let .gap(next): return "gap: the entry is missing (the next one is \(next))"
      case let .truncatedTail(lastSeq): return "truncated tail: the log ends at \(lastSeq)"
      case let .badCheckpoint(reason): return "bad checkpoint: \(reason)"
      case let .noCheckpointFile(path, lastSeq):
        return "no checkpoint file at \(path): whether entries after \(lastSeq) were cut off cannot be told"
      }
    }
  }

  /// The first break: the seq where it is, and what it is.
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    public let seq: Int64
    public let problem: Problem
    public var description: String { "seq \(seq): \(problem)" }

    public init(seq: Int64, problem: Problem) {
      self.seq = seq
      self.problem = problem
    }
  }

  /// How many entries were checked and found sound.
  public let verifiedEntries: Int64
  /// How many signed checkpoints were checked (the file beside the database included).
  public let checkedCheckpoints: Int
  /// The first break, or nil when the log is sound.
  public let failure: Failure?
  /// Things worth knowing that are not breaks (a missing checkpoint file, for one).
  public let notes: [String]

  public var isSound: Bool { failure == nil }
}

extension ActionLog {
  /// Checks the whole log: every entry's seal, the hash chain, the gapless seqs, every checkpoint
  /// signature, and the checkpoint file beside the database. Reports the first break.
  ///
  /// A tail cut off the log is named (``VerificationReport/Problem/truncatedTail(lastSeq:)``, at
  /// the first missing seq) when a checkpoint in the database or in the file vouches for more
  /// entries than the log has. What no check of the home alone can catch is a rollback to an
  /// earlier state of every file — entries and newer checkpoints deleted, and the checkpoint
  /// file's newer slot overwritten with its older one, or spoiled as a crash would spoil it:
  /// that is what the home looked like once. The witnesses outside it are the daemon's
  /// `checkpoint seq=N head=HEX` log lines and the clients.
  ///
  /// - Parameters:
  ///   - withoutCheckpointFile: accept a non-empty log with no checkpoint file beside it (with a
  ///     note). By default that fails: every log has the file from its creation on, and deleting
  ///     it is how a cut tail would hide.
  ///   - witnessed: chain heads by seq seen outside the home — the daemon's `checkpoint seq=N
  ///     head=HEX` lines, kept by the operator's journal. The log must hold each: one beyond its
  ///     end is a truncated tail, one with another head a bad checkpoint. They are what catches
  ///     the rollback described above.
  ///   - progress: called now and then with (entries checked, entries in the log).
  public func verify(
    withoutCheckpointFile: Bool = false, witnessed: [Int64: [UInt8]] = [:],
    progress: ((Int64, Int64) -> Void)? = nil
  ) throws(LogError) -> VerificationReport {
    var notes: [String] = []
    var checkpoints = try self.checkpoints()
    let fileBytes = try DurableFile.read(checkpointFile.path)
    if let bytes = fileBytes {
      if case let .checkpoint(fileLogID, checkpoint) = CheckpointFile.newest(in: bytes), fileLogID == logID {
        checkpoints.append(checkpoint)
      } else {
        return VerificationReport(
          verifiedEntries: 0, checkedCheckpoints: 0,
          failure: .init(seq: 0, problem: .badCheckpoint(reason: "\(checkpointFile.path) is not this log's checkpoint")),
          notes: notes)
      }
    }
    // Each checkpoint must be signed by this log's key; its head is checked as the pass reaches it.
    var heads: [Int64: [UInt8]] = [:]
    var firstFailure: VerificationReport.Failure?
    func note(_ failure: VerificationReport.Failure) {
      if firstFailure == nil || failure.seq < firstFailure!.seq { firstFailure = failure }
    }
    for checkpoint in checkpoints {
      if checkpoint.isSigned(by: publicKey, logID: logID) {
        heads[checkpoint.seq] = checkpoint.head
      } else {
        note(.init(seq: checkpoint.seq, problem: .badCheckpoint(reason: "its signature is not this log's")))
      }
    }

    var verified: Int64 = 0
    var lastSeq: Int64 = 0
    try reading {
      try database.read { db in
        let total = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM entries") ?? 0
        do {
          try forEachCheckedEntry(db, from: 1, through: nil) { checked in
            if let head = heads[checked.seq], !Crypto.equal(head, checked.hash) {
              throw VerificationReport.Failure(seq: checked.seq, problem: .badCheckpoint(reason: "it signs a different head"))
            }
            if let head = witnessed[checked.seq], !Crypto.equal(head, checked.hash) {
              throw VerificationReport.Failure(
                seq: checked.seq, problem: .badCheckpoint(reason: "the log's head differs from the one seen outside the home"))
            }
            lastSeq = checked.seq
            verified += 1
            if verified % 65536 == 0 { progress?(verified, total) }
          }
          progress?(verified, total)
        } catch let failure as EntryFailure {
          switch failure.fault {
          case let .missing(next): note(.init(seq: failure.seq, problem: .gap(next: next)))
          case .badSeal: note(.init(seq: failure.seq, problem: .badSeal))
          case .brokenChain: note(.init(seq: failure.seq, problem: .brokenChain))
          }
        } catch let failure as VerificationReport.Failure {
          note(failure)
        }
      }
    }
    if firstFailure == nil, let beyond = (checkpoints.map(\.seq) + witnessed.keys).filter({ $0 > lastSeq }).max() {
      note(.init(seq: lastSeq + 1, problem: .truncatedTail(lastSeq: lastSeq)))
      notes.append("a checkpoint vouches for entries up to \(beyond): entries \(lastSeq + 1) to \(beyond) were cut off")
    }
    if fileBytes == nil, verified > 0 || firstFailure != nil {
      if withoutCheckpointFile {
        notes.append("no checkpoint file at \(checkpointFile.path): a truncated tail cannot be detected")
      } else {
        note(.init(seq: lastSeq, problem: .noCheckpointFile(path: checkpointFile.path, lastSeq: lastSeq)))
      }
    }
    return VerificationReport(
      verifiedEntries: verified, checkedCheckpoints: checkpoints.count, failure: firstFailure,
      notes: notes)
  }
}
