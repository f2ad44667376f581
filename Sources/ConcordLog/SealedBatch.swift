import Foundation
import GRDB

/// What a batch of entries is sealed from and into: each record's salt and nonce, and one
/// buffer holding every row's nonce, ciphertext and chain hash, each row at an offset fixed
/// before sealing starts.
///
/// The rows' blobs are bound for the insert as slices of one `Data`, so a row costs no
/// allocation of its own, and the buffer is allocated by the thread that inserts (which, as a
/// rule, also frees it, once the sealing thread has let go of the batch).
/// (When the sealing thread allocated each row's buffers and the inserting thread freed them,
/// every free went to the other thread's malloc arena, and the inserts ran about a quarter
/// slower while the two threads worked side by side.)
///
/// ```swift
/// let batch = SealedBatch(records)
/// batch.seal(0, records[0], with: &sealer)
/// try insert.execute(arguments: batch.insertArguments(for: records[0], seq: tail.seq + 1, at: 0))
/// ```
final class SealedBatch: @unchecked Sendable {
  // @unchecked: a region is written by one thread (whichever seals its row) before the row is
  // handed to the inserting thread through the pipeline's release/acquire, and never after.

  /// The rows' bytes; owns `base`.
  private let bytes: Data
  private let base: UnsafeMutableRawPointer
  /// Where each record's row starts in `bytes`, and, last, the end of the last row.
  private let offsets: [Int]
  /// Each record's salt then nonce (``EntrySealer/randomBytesPerEntry`` bytes).
  private let random: [UInt8]

  init(_ records: [LogRecord]) {
    var offsets: [Int] = []
    offsets.reserveCapacity(records.count + 1)
    var offset = 0
    for record in records {
      offsets.append(offset)
      offset += EntrySealer.sealedByteCount(of: record)
    }
    offsets.append(offset)
    self.offsets = offsets
    base = .allocate(byteCount: max(offset, 1), alignment: 16)
    bytes = Data(bytesNoCopy: base, count: offset, deallocator: .custom { pointer, _ in pointer.deallocate() })
    random = Crypto.randomStream(count: records.count * EntrySealer.randomBytesPerEntry)
  }

  /// Seals `record`, the batch's record `index`, into its row with `sealer`.
  func seal(_ index: Int, _ record: LogRecord, with sealer: inout EntrySealer) {
    let start = index * EntrySealer.randomBytesPerEntry
    random.withUnsafeBytes { random in
      sealer.seal(
        record, random: UnsafeRawBufferPointer(rebasing: random[start..<start + EntrySealer.randomBytesPerEntry]),
        into: UnsafeMutableRawBufferPointer(start: base + offsets[index], count: offsets[index + 1] - offsets[index]))
    }
  }

  /// The salt sealed into record `index`'s payload.
  func salt(of index: Int) -> [UInt8] {
    let start = index * EntrySealer.randomBytesPerEntry
    return Array(random[start..<start + EntryCodec.saltBytes])
  }

  /// What the `entries` table stores for `record`, sealed as entry `seq` into region `index`,
  /// in the order of its insert. The region is the nonce, the ciphertext, then the hash.
  func insertArguments(for record: LogRecord, seq: Int64, at index: Int) -> StatementArguments {
    let start = offsets[index]
    let ciphertextStart = start + Crypto.nonceBytes
    let hashStart = offsets[index + 1] - Crypto.hashBytes
    return [
      seq, record.at.milliseconds, ExactText.bytes(of: record.client), record.cseq, bytes[start..<ciphertextStart],
      bytes[ciphertextStart..<hashStart], bytes[hashStart..<offsets[index + 1]],
    ]
  }

  /// The chain hash of the row sealed into region `index`.
  func hash(of index: Int) -> [UInt8] {
    Array(UnsafeRawBufferPointer(start: base + offsets[index + 1] - Crypto.hashBytes, count: Crypto.hashBytes))
  }
}
