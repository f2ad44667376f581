import Foundation
import GRDB

/// Turns records into sealed, chained rows, one after another from a chain position.
///
/// It keeps one payload buffer and one associated-data buffer for a whole batch, so sealing an
/// entry allocates only what the row keeps (its blobs, hash and salt).
struct EntrySealer {
  /// One entry ready to be inserted, and what its ``LogEntry`` needs besides the record.
  struct SealedRow: Sendable {
    let seq: Int64
    let atMilliseconds: Int64
    let previousHash: [UInt8]
    let hash: [UInt8]
    let salt: [UInt8]
    /// The row's nonce, ciphertext and hash, one after the other in one buffer.
    let blobs: Data
    let ciphertextEnd: Int

    /// What the `entries` table stores for `record` sealed as this row, in the order of its
    /// insert. Made by the inserting thread: the sealing thread, which is the busier one, only
    /// seals.
    func insertArguments(for record: LogRecord) -> StatementArguments {
      [
        seq, atMilliseconds, record.client, record.cseq, blobs[..<Crypto.nonceBytes],
        blobs[Crypto.nonceBytes..<ciphertextEnd], blobs[ciphertextEnd...],
      ]
    }
  }

  private let key: SecretBytes
  private let prefixCount: Int
  private var payload: [UInt8] = []
  private var associatedData: [UInt8]
  /// The seq and chain hash of the last entry sealed (or of the position sealing starts after).
  private(set) var seq: Int64
  private(set) var head: [UInt8]

  init(key: SecretBytes, associatedDataPrefix: [UInt8], after seq: Int64, head: [UInt8]) {
    self.key = key
    self.prefixCount = associatedDataPrefix.count
    self.associatedData = associatedDataPrefix
    self.seq = seq
    self.head = head
  }

  /// Seals `record` as the entry after the last one, with `random` holding its salt then its
  /// nonce (``randomBytesPerEntry`` bytes from the system's generator).
  mutating func seal(_ record: LogRecord, random: UnsafeRawBufferPointer) -> SealedRow {
    precondition(random.count == Self.randomBytesPerEntry)
    let seq = self.seq + 1
    let salt = UnsafeRawBufferPointer(rebasing: random[..<EntryCodec.saltBytes])
    let nonce = UnsafeRawBufferPointer(rebasing: random[EntryCodec.saltBytes...])
    payload.removeAll(keepingCapacity: true)
    EntryCodec.encode(
      salt: salt, user: record.user, scope: record.scope, action: record.action,
      outcome: record.outcome, app: record.app, appVersion: record.appVersion, into: &payload)
    let at = record.at.milliseconds
    let hash = EntryCodec.chainHash(
      previous: head, seq: seq, atMilliseconds: at, client: record.client, cseq: record.cseq,
      payload: payload)
    EntryCodec.replaceAssociatedData(of: &associatedData, prefixCount: prefixCount, seq: seq, previousHash: head)
    // The row's three blobs (nonce, ciphertext, hash) live in one buffer, bound as slices of it:
    // two allocations for the three, where one `Data` each took six.
    let ciphertextEnd = nonce.count + payload.count + Crypto.tagBytes
    var blobs = Data(count: ciphertextEnd + hash.count)
    blobs.withUnsafeMutableBytes { out in
      out.copyMemory(from: nonce)
      payload.withUnsafeBytes { payload in
        Crypto.seal(
          payload, nonce: nonce, associatedData: associatedData, key: key,
          into: UnsafeMutableRawBufferPointer(rebasing: out[nonce.count..<ciphertextEnd]))
      }
      hash.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[ciphertextEnd...]).copyMemory(from: $0) }
    }
    let row = SealedRow(
      seq: seq, atMilliseconds: at, previousHash: head, hash: hash, salt: Array(salt), blobs: blobs,
      ciphertextEnd: ciphertextEnd)
    self.seq = seq
    self.head = hash
    return row
  }

  /// How many random bytes an entry takes: its salt and its nonce.
  static let randomBytesPerEntry = EntryCodec.saltBytes + Crypto.nonceBytes
}
