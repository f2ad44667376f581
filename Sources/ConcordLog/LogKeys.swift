/// The keys of one log, derived from its master key: one subkey per purpose, so that a key used
/// for entries is never used for anything else.
///
/// The master key itself is dropped (and zeroed) as soon as the subkeys exist.
public final class LogKeys: Sendable {
  /// What a subkey is for.
  public enum Purpose: UInt64, Sendable {
    case entries = 1
    case snapshots = 2
    case signing = 3
    case outbox = 4
  }

  /// A public name of the master key, stored in the log: a key that does not produce it is the
  /// wrong key, detected before any entry is touched.
  let keyID: [UInt8]
  let entries: SecretBytes
  let snapshots: SecretBytes
  let signing: SecretBytes
  let outboxKey: SecretBytes

  init(master: SecretBytes) {
    keyID = Crypto.hash(Array("concord.key-id.v1".utf8), key: master, count: 16)
    entries = Crypto.deriveSubkey(from: master, id: Purpose.entries.rawValue, context: "concord1")
    snapshots = Crypto.deriveSubkey(from: master, id: Purpose.snapshots.rawValue, context: "concord1")
    signing = Crypto.deriveSubkey(from: master, id: Purpose.signing.rawValue, context: "concord1")
    outboxKey = Crypto.deriveSubkey(from: master, id: Purpose.outbox.rawValue, context: "concord1")
  }

  /// The subkey for `purpose`, for modules that seal their own data with the log's key (the
  /// client's outbox, for one).
  public func subkey(for purpose: Purpose) -> SecretBytes {
    switch purpose {
    case .entries: return entries
    case .snapshots: return snapshots
    case .signing: return signing
    case .outbox: return outboxKey
    }
  }
}
