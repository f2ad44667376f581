import Foundation

/// Seals small records kept on the user's own machine — the client's outbox, its last-seen
/// states — with a subkey of the user's key file, so nothing readable is left at rest.
///
/// Each record is bound to its place (`associatedData`: the table and row it belongs in), so a
/// record moved to another row fails to open.
///
/// ```swift
/// let sealer = try LocalSealer(keyFile: home.appending(path: "key"), purpose: .outbox)
/// let sealed = sealer.seal(Array(#"{"increment":{}}"#.utf8), associatedData: Array("pending/7".utf8))
/// sealer.open(sealed, associatedData: Array("pending/7".utf8))   // the bytes, or nil
/// ```
public struct LocalSealer: Sendable {
  private let key: SecretBytes

  /// Reads the key file (creating it, mode 0600, when it does not exist yet: the daemon then
  /// uses it for a new log) and derives the subkey for `purpose`.
  public init(keyFile: URL, purpose: LogKeys.Purpose) throws(LogError) {
    let master = try KeyFile.load(keyFile, create: true)
    key = LogKeys(master: master).subkey(for: purpose)
  }

  /// The nonce followed by the ciphertext.
  public func seal(_ plaintext: [UInt8], associatedData: [UInt8]) -> [UInt8] {
    let (nonce, ciphertext) = Crypto.seal(plaintext, associatedData: associatedData, key: key)
    return nonce + ciphertext
  }

  /// The plaintext, or nil when the key or the place is not the one it was sealed with, or a
  /// byte changed.
  public func open(_ sealed: [UInt8], associatedData: [UInt8]) -> [UInt8]? {
    guard sealed.count >= Crypto.nonceBytes else { return nil }
    return sealed[..<Crypto.nonceBytes].withUnsafeBytes { nonce in
      sealed[Crypto.nonceBytes...].withUnsafeBytes { ciphertext in
        Crypto.open(ciphertext, nonce: nonce, associatedData: associatedData, key: key)
      }
    }
  }

  /// A keyed hash of `text`, in hex: a name for a row that does not say what it names.
  public func tag(_ text: String) -> String {
    Crypto.hash(Array(text.utf8), key: key, count: 16).hex
  }
}
