import Foundation

/// Turns records into sealed, chained rows, one after another from a chain position.
///
/// It keeps one payload buffer and one associated-data buffer for a whole batch, and writes each
/// row's nonce, ciphertext and hash into memory the caller provides (a ``SealedBatch``), so
/// sealing an entry allocates nothing.
struct EntrySealer {
  private let key: SecretBytes
  private let prefixCount: Int
  private var payload: [UInt8] = []
  private var associatedData: [UInt8]
  /// The seq and chain hash of the last entry sealed (or of the position sealing starts after).
  private var seq: Int64
  private var head: [UInt8]

  init(key: SecretBytes, associatedDataPrefix: [UInt8], after seq: Int64, head: [UInt8]) {
    self.key = key
    self.prefixCount = associatedDataPrefix.count
    self.associatedData = associatedDataPrefix
    self.seq = seq
    self.head = head
  }

  /// How many bytes the row of `record` takes: its nonce, its ciphertext and its hash.
  static func sealedByteCount(of record: LogRecord) -> Int {
    Crypto.nonceBytes + Crypto.tagBytes + Crypto.hashBytes
      + EntryCodec.payloadByteCount(
        user: record.user, scope: record.scope, action: record.action, outcome: record.outcome, app: record.app)
  }

  /// Seals `record` as the entry after the last one into `out` (``sealedByteCount(of:)`` bytes:
  /// the nonce, the ciphertext with its tag, then the chain hash), with `random` holding its salt
  /// then its nonce (``randomBytesPerEntry`` bytes from the system's generator).
  mutating func seal(
    _ record: LogRecord, random: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
  ) {
    precondition(random.count == Self.randomBytesPerEntry)
    let seq = self.seq + 1
    let salt = UnsafeRawBufferPointer(rebasing: random[..<EntryCodec.saltBytes])
    let nonce = UnsafeRawBufferPointer(rebasing: random[EntryCodec.saltBytes...])
    payload.removeAll(keepingCapacity: true)
    EntryCodec.encode(
      salt: salt, user: record.user, scope: record.scope, action: record.action,
      outcome: record.outcome, app: record.app, appVersion: record.appVersion, into: &payload)
    let ciphertextEnd = nonce.count + payload.count + Crypto.tagBytes
    precondition(out.count == ciphertextEnd + Crypto.hashBytes)
    let at = record.at.milliseconds
    EntryCodec.replaceAssociatedData(of: &associatedData, prefixCount: prefixCount, seq: seq, previousHash: head)
    out.copyMemory(from: nonce)
    payload.withUnsafeBytes { payload in
      Crypto.seal(
        payload, nonce: nonce, associatedData: associatedData, key: key,
        into: UnsafeMutableRawBufferPointer(rebasing: out[nonce.count..<ciphertextEnd]))
      EntryCodec.chainHash(
        previous: head, seq: seq, atMilliseconds: at, client: record.client, cseq: record.cseq,
        payload: payload, into: UnsafeMutableRawBufferPointer(rebasing: out[ciphertextEnd...]))
    }
    // The new head, copied over the old one in place: no allocation.
    head.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: out[ciphertextEnd...])) }
    self.seq = seq
  }

  /// How many random bytes an entry takes: its salt and its nonce.
  static let randomBytesPerEntry = EntryCodec.saltBytes + Crypto.nonceBytes
}
