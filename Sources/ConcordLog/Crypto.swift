import CSodium
import Foundation

/// The libsodium primitives the log uses, with Swift types. Internal: the log's own types are the
/// public face.
enum Crypto {
  static let keyBytes = 32
  static let hashBytes = 32
  static let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
  static let tagBytes = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)
  static let signatureBytes = Int(crypto_sign_BYTES)
  static let publicKeyBytes = Int(crypto_sign_PUBLICKEYBYTES)
  static let signingSecretBytes = Int(crypto_sign_SECRETKEYBYTES)
  static let saltBytes = Int(crypto_pwhash_SALTBYTES)

  static func randomBytes(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    randombytes_buf(&bytes, count)
    return bytes
  }

  /// `count` random bytes for nonces and salts in bulk: a fresh 32-byte seed from the system's
  /// generator, expanded with ChaCha20 (`randombytes_buf_deterministic`). The output is as good
  /// as the system's, and a batch of a thousand entries costs one small `getrandom` instead of
  /// one of 40 KB (about a fifth of a microsecond per entry here).
  static func randomStream(count: Int) -> [UInt8] {
    var seed = [UInt8](repeating: 0, count: Int(randombytes_SEEDBYTES))
    randombytes_buf(&seed, seed.count)
    defer { zeroize(&seed) }
    var bytes = [UInt8](repeating: 0, count: count)
    randombytes_buf_deterministic(&bytes, count, seed)
    return bytes
  }

  // MARK: Sealing (XChaCha20-Poly1305, random nonce)

  /// Seals `plaintext` under `key`, binding `associatedData`, with `nonce` (random, never
  /// reused: 24 bytes from the system's generator). Returns the ciphertext with its tag.
  static func seal(
    _ plaintext: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, associatedData: [UInt8],
    key: SecretBytes
  ) -> Data {
    var ciphertext = Data(count: plaintext.count + tagBytes)
    ciphertext.withUnsafeMutableBytes { out in
      seal(plaintext, nonce: nonce, associatedData: associatedData, key: key, into: out)
    }
    return ciphertext
  }

  /// Seals `plaintext` into `out`, which holds exactly `plaintext.count + tagBytes` bytes: the
  /// append path writes each entry's ciphertext straight into the buffer its row is bound from.
  static func seal(
    _ plaintext: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, associatedData: [UInt8],
    key: SecretBytes, into out: UnsafeMutableRawBufferPointer
  ) {
    precondition(nonce.count == nonceBytes && out.count == plaintext.count + tagBytes)
    var written: UInt64 = 0
    key.withKey { key in
      _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
        out.baseAddress!.assumingMemoryBound(to: UInt8.self), &written,
        plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(plaintext.count),
        associatedData, UInt64(associatedData.count), nil,
        nonce.baseAddress!.assumingMemoryBound(to: UInt8.self), key)
    }
  }

  /// Seals `plaintext` under `key` with a fresh random nonce.
  static func seal(
    _ plaintext: UnsafeRawBufferPointer, associatedData: [UInt8], key: SecretBytes
  ) -> (nonce: [UInt8], ciphertext: [UInt8]) {
    let nonce = randomBytes(nonceBytes)
    let ciphertext = nonce.withUnsafeBytes {
      seal(plaintext, nonce: $0, associatedData: associatedData, key: key)
    }
    return (nonce, [UInt8](ciphertext))
  }

  static func seal(_ plaintext: [UInt8], associatedData: [UInt8], key: SecretBytes) -> (nonce: [UInt8], ciphertext: [UInt8]) {
    plaintext.withUnsafeBytes { seal($0, associatedData: associatedData, key: key) }
  }

  /// Opens a sealed box into `out` (`ciphertext.count - tagBytes` bytes). False when the key,
  /// the nonce, the associated data or a single byte of the ciphertext is not what it was when
  /// sealed.
  private static func decrypt(
    _ ciphertext: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, associatedData: [UInt8],
    key: SecretBytes, into out: UnsafeMutableRawPointer
  ) -> Bool {
    var written: UInt64 = 0
    return key.withKey { key in
      crypto_aead_xchacha20poly1305_ietf_decrypt(
        out.assumingMemoryBound(to: UInt8.self), &written, nil,
        ciphertext.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(ciphertext.count),
        associatedData, UInt64(associatedData.count),
        nonce.baseAddress!.assumingMemoryBound(to: UInt8.self), key)
    } == 0
  }

  /// Opens a sealed box given as raw bytes (a database row's, read in place); nil when it does
  /// not open.
  static func open(
    _ ciphertext: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, associatedData: [UInt8],
    key: SecretBytes
  ) -> [UInt8]? {
    guard ciphertext.count >= tagBytes, nonce.count == nonceBytes else { return nil }
    var opened = false
    let plaintext = [UInt8](unsafeUninitializedCapacity: ciphertext.count - tagBytes) { buffer, count in
      // A zero-byte plaintext still needs somewhere to point.
      if let out = buffer.baseAddress {
        opened = decrypt(ciphertext, nonce: nonce, associatedData: associatedData, key: key, into: out)
      } else {
        var empty: UInt8 = 0
        opened = withUnsafeMutableBytes(of: &empty) {
          decrypt(ciphertext, nonce: nonce, associatedData: associatedData, key: key, into: $0.baseAddress!)
        }
      }
      count = opened ? buffer.count : 0
    }
    return opened ? plaintext : nil
  }

  /// Opens a sealed box into guarded memory (for keys sealed with another key).
  static func openSecret(
    _ ciphertext: [UInt8], nonce: [UInt8], associatedData: [UInt8], key: SecretBytes
  ) -> SecretBytes? {
    guard ciphertext.count > tagBytes, nonce.count == nonceBytes else { return nil }
    var opened = false
    let secret = SecretBytes(count: ciphertext.count - tagBytes) { out in
      opened = ciphertext.withUnsafeBytes { ciphertext in
        nonce.withUnsafeBytes { nonce in
          decrypt(ciphertext, nonce: nonce, associatedData: associatedData, key: key, into: out.baseAddress!)
        }
      }
    }
    return opened ? secret : nil
  }

  // MARK: Hashing (BLAKE2b)

  /// A BLAKE2b hash of `parts`, one after another; keyed when `key` is given.
  static func hash(_ parts: [UInt8]..., key: SecretBytes? = nil, count: Int = hashBytes) -> [UInt8] {
    hash(key: key, count: count) { hasher in
      for part in parts { hasher.update(part) }
    }
  }

  /// A BLAKE2b hash of what `body` feeds the hasher. The state lives on the stack.
  static func hash(key: SecretBytes? = nil, count: Int = hashBytes, _ body: (Hasher) -> Void) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    out.withUnsafeMutableBytes { hash(key: key, into: $0, body) }
    return out
  }

  /// A BLAKE2b hash of `out.count` bytes of what `body` feeds the hasher, written into `out`.
  static func hash(key: SecretBytes? = nil, into out: UnsafeMutableRawBufferPointer, _ body: (Hasher) -> Void) {
    // libsodium wants the state 64-byte aligned. A temporary allocation aligned that strictly, or
    // of a size known only at run time, comes from the heap (posix_memalign, for every entry
    // sealed, read or verified); a constant size aligned by hand stays on the stack.
    precondition(hashStateFits)
    withUnsafeTemporaryAllocation(byteCount: 512, alignment: 16) { buffer in
      let start = UInt(bitPattern: buffer.baseAddress!)
      let state = OpaquePointer(UnsafeMutableRawPointer(bitPattern: (start + 63) & ~63)!)
      if let key {
        key.withKey { _ = crypto_generichash_init(state, $0, key.count, out.count) }
      } else {
        _ = crypto_generichash_init(state, nil, 0, out.count)
      }
      body(Hasher(state: state))
      _ = crypto_generichash_final(state, out.baseAddress!.assumingMemoryBound(to: UInt8.self), out.count)
    }
  }

  /// Whether a BLAKE2b state and its alignment fit in the 512 bytes `hash` sets aside.
  private static let hashStateFits = crypto_generichash_statebytes() + 63 <= 512

  /// Feeds bytes to a hash in progress.
  struct Hasher {
    let state: OpaquePointer

    func update(_ bytes: UnsafeRawBufferPointer) {
      _ = crypto_generichash_update(state, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    func update(_ bytes: [UInt8]) {
      bytes.withUnsafeBytes { update($0) }
    }

    func update(_ text: StaticString) {
      update(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    func update<T: FixedWidthInteger>(bigEndian value: T) {
      withUnsafeBytes(of: value.bigEndian) { update($0) }
    }

    /// The UTF-8 length as four big-endian bytes, then the bytes.
    func update(lengthPrefixed string: String) {
      var string = string
      string.withUTF8 { utf8 in
        update(bigEndian: UInt32(utf8.count))
        update(UnsafeRawBufferPointer(utf8))
      }
    }
  }

  // MARK: Keys

  /// A subkey of `master` for one purpose; `context` is exactly eight characters.
  static func deriveSubkey(from master: SecretBytes, id: UInt64, context: StaticString) -> SecretBytes {
    precondition(context.utf8CodeUnitCount == 8)
    return SecretBytes(count: keyBytes) { out in
      master.withKey { master in
        context.withUTF8Buffer { ctx in
          ctx.withMemoryRebound(to: CChar.self) { ctx in
            _ = crypto_kdf_derive_from_key(
              out.baseAddress!.assumingMemoryBound(to: UInt8.self), keyBytes, id, ctx.baseAddress!, master)
          }
        }
      }
    }
  }

  /// Argon2id over `passphrase`; nil when the limits are beyond what the machine can give.
  static func deriveFromPassphrase(
    _ passphrase: [UInt8], salt: [UInt8], opsLimit: UInt64, memLimit: Int
  ) -> SecretBytes? {
    // An empty array may have no storage; libsodium wants a pointer even for zero bytes.
    let input = passphrase.isEmpty ? [0] : passphrase
    let length = UInt64(passphrase.count)
    var failed = false
    let key = SecretBytes(count: keyBytes) { out in
      let result = input.withUnsafeBufferPointer { pass in
        pass.withMemoryRebound(to: CChar.self) { pass in
          crypto_pwhash(
            out.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(keyBytes),
            pass.baseAddress!, length, salt, opsLimit, memLimit,
            crypto_pwhash_ALG_ARGON2ID13)
        }
      }
      failed = result != 0
    }
    return failed ? nil : key
  }

  // MARK: Signatures (Ed25519)

  static func signingKeyPair() -> (publicKey: [UInt8], secretKey: SecretBytes) {
    var publicKey = [UInt8](repeating: 0, count: publicKeyBytes)
    let secret = SecretBytes(count: signingSecretBytes) { out in
      _ = crypto_sign_keypair(&publicKey, out.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }
    return (publicKey, secret)
  }

  static func sign(_ message: [UInt8], secretKey: SecretBytes) -> [UInt8] {
    var signature = [UInt8](repeating: 0, count: signatureBytes)
    secretKey.withKey { key in
      _ = crypto_sign_detached(&signature, nil, message, UInt64(message.count), key)
    }
    return signature
  }

  static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
    guard signature.count == signatureBytes, publicKey.count == publicKeyBytes else { return false }
    return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
  }

  /// Constant-time comparison of two byte strings of equal length.
  static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    a.count == b.count && sodium_memcmp(a, b, a.count) == 0
  }

  /// ``equal(_:_:)`` against bytes read in place.
  static func equal(_ a: [UInt8], _ b: UnsafeRawBufferPointer) -> Bool {
    a.count == b.count && (a.isEmpty || sodium_memcmp(a, b.baseAddress!, a.count) == 0)
  }
}

extension Array where Element == UInt8 {
  /// Lowercase hexadecimal.
  public var hex: String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(count * 2)
    for byte in self {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Bytes from lowercase hexadecimal (as the log writes it), or nil for anything else.
  ///
  /// ```swift
  /// [UInt8](hex: "00ff")   // [0, 255]
  /// [UInt8](hex: "00FF")   // nil
  /// ```
  public init?(hex: String) {
    var bytes: [UInt8] = []
    var high: UInt8?
    for char in hex.utf8 {
      let value: UInt8
      switch char {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = char - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = char - UInt8(ascii: "a") + 10
      default: return nil
      }
      if let h = high {
        bytes.append(h << 4 | value)
        high = nil
      } else {
        high = value
      }
    }
    guard high == nil else { return nil }
    self = bytes
  }
}
