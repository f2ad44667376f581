import CSodium

/// Key material in guarded memory: allocated by libsodium (locked, with guard pages), and
/// zeroed and freed when the last reference goes.
///
/// Secrets never live in Swift arrays, which could be copied and left behind in freed memory.
///
/// ```swift
/// let key = SecretBytes.random(count: 32)
/// key.withUnsafeBytes { crypto_secretbox_keygen... }
/// ```
public final class SecretBytes: @unchecked Sendable {
  // @unchecked: the memory is written only during initialization and read afterwards.
  private let pointer: UnsafeMutableRawPointer
  /// How many bytes the secret holds.
  public let count: Int

  /// Fresh guarded memory of `count` bytes, filled by `fill`.
  public init(count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
    precondition(count > 0)
    try? Sodium.initialize()
    guard let pointer = sodium_malloc(count) else {
      fatalError("libsodium could not allocate \(count) bytes of guarded memory")
    }
    self.pointer = pointer
    self.count = count
    do {
      try fill(UnsafeMutableRawBufferPointer(start: pointer, count: count))
    } catch {
      sodium_free(pointer)
      throw error
    }
  }

  /// `count` random bytes.
  public static func random(count: Int) -> SecretBytes {
    SecretBytes(count: count) { randombytes_buf($0.baseAddress!, $0.count) }
  }

  deinit {
    // sodium_free zeroes the memory before releasing it.
    sodium_free(pointer)
  }

  /// Reads the secret. Do not let the pointer escape.
  public func withUnsafeBytes<R, E: Error>(
    _ body: (UnsafeRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    try body(UnsafeRawBufferPointer(start: pointer, count: count))
  }

  /// The secret's base address, typed as libsodium wants it.
  func withKey<R, E: Error>(_ body: (UnsafePointer<UInt8>) throws(E) -> R) throws(E) -> R {
    try body(pointer.assumingMemoryBound(to: UInt8.self))
  }
}

/// Zeroes `bytes` in place: for secrets that passed through ordinary memory (a passphrase read
/// from a terminal, for one).
public func zeroize(_ bytes: inout [UInt8]) {
  bytes.withUnsafeMutableBytes { sodium_memzero($0.baseAddress, $0.count) }
}
