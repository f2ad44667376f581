import Foundation

/// Where the log's master key comes from.
///
/// ```swift
/// let log = try ActionLog.open(at: home.appending(path: "log.sqlite"),
///                              key: .file(home.appending(path: "key")))
/// let vault = try ActionLog.open(at: path, key: .passphrase(Array("correct horse".utf8)))
/// ```
public enum KeySource: Sendable {
  /// A key file: 32 random bytes, mode 0600. Created on first use when the log is new; a key
  /// file that others can read is refused, as ssh refuses a private key.
  case file(URL)
  /// A passphrase. A random master key is wrapped by a key derived from it with Argon2id; the
  /// algorithm, salt and limits are stored in the log, so the limits can grow later.
  case passphrase([UInt8], limits: PassphraseLimits = .interactive)
}

/// The cost of deriving a key from a passphrase (Argon2id).
public struct PassphraseLimits: Sendable, Equatable {
  /// Passes over memory.
  public var operations: UInt64
  /// Bytes of memory.
  public var memory: Int

  public init(operations: UInt64, memory: Int) {
    self.operations = operations
    self.memory = memory
  }

  /// libsodium's interactive limits: about 64 MiB and a fraction of a second.
  public static let interactive = PassphraseLimits(operations: 2, memory: 64 << 20)
  /// libsodium's sensitive limits: about 1 GiB and several seconds.
  public static let sensitive = PassphraseLimits(operations: 4, memory: 1 << 30)
  /// The least libsodium accepts. For tests only: it protects nothing.
  public static let minimum = PassphraseLimits(operations: 1, memory: 8192)
}

/// Reading and creating key files.
enum KeyFile {
  /// Loads the key at `url`, or creates one when it does not exist and `create` is true.
  static func load(_ url: URL, create: Bool) throws(LogError) -> SecretBytes {
    let path = url.path
    var info = stat()
    if stat(path, &info) != 0 {
      guard errno == ENOENT, create else {
        throw .io(path: path, reason: errno == ENOENT ? "the key file is missing" : String(cString: strerror(errno)))
      }
      return try make(at: path)
    }
    let mode = UInt16(info.st_mode & 0o777)
    guard mode & 0o077 == 0 else { throw .keyFileTooOpen(path: path, mode: mode) }
    guard info.st_uid == geteuid() else {
      throw .keyFileMalformed(path: path, reason: "it belongs to another user")
    }
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    var failed = false
    let key = SecretBytes(count: Crypto.keyBytes) { out in
      var total = 0
      while total < out.count {
        let n = read(fd, out.baseAddress! + total, out.count - total)
        if n <= 0 { break }
        total += n
      }
      var extra: UInt8 = 0
      failed = total != out.count || read(fd, &extra, 1) != 0
    }
    guard !failed else {
      throw .keyFileMalformed(path: path, reason: "it must hold exactly \(Crypto.keyBytes) bytes")
    }
    return key
  }

  /// Writes a new random key, mode 0600. It is written whole to a file of its own and then
  /// linked into place, which fails when a key appeared meanwhile: then that key (complete, as a
  /// link only ever shows whole files) is the one used. Two processes starting together on a new
  /// home so agree on one key.
  private static func make(at path: String) throws(LogError) -> SecretBytes {
    let key = SecretBytes.random(count: Crypto.keyBytes)
    // A name no other process or thread writing a key at the same moment can share.
    let temporary = path + ".new-" + Crypto.randomBytes(8).hex
    let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw .io(path: temporary, reason: String(cString: strerror(errno))) }
    let written = key.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    var writeError = written < 0 ? String(cString: strerror(errno)) : "short write"
    let synced = fsync(fd) == 0
    if !synced { writeError = String(cString: strerror(errno)) }
    close(fd)
    defer { unlink(temporary) }
    guard written == Crypto.keyBytes, synced else {
      throw .io(path: path, reason: "could not write the new key: \(writeError)")
    }
    guard link(temporary, path) == 0 else {
      guard errno == EEXIST else { throw .io(path: path, reason: String(cString: strerror(errno))) }
      return try load(URL(filePath: path), create: false)
    }
    // The key's name must outlive a crash too: without it, nothing the key sealed opens. (The
    // key itself is not written through DurableFile, which takes a Swift array: a secret never
    // lives in one.)
    DurableFile.syncDirectory(containing: path)
    return key
  }
}
