import ConcordSchema
import Foundation
import GRDB
import Synchronization

/// The encrypted, hash-chained action log: every action the daemon reduced, in order, sealed,
/// and provably unaltered.
///
/// One SQLite database (WAL, `synchronous=FULL`) holds one row per action. The acting user, the
/// scope, the action and its outcome are sealed with XChaCha20-Poly1305 under a key that never
/// touches the database; a BLAKE2b hash chain links the entries, and Ed25519 checkpoints sign the
/// chain head, inside the database and in a file beside it (so a truncated tail is detected).
///
/// ```swift
/// let log = try ActionLog.open(at: dir.appending(path: "log.sqlite"),
///                              key: .file(dir.appending(path: "key")))
/// let appended = try log.append([record])       // durable when it returns
/// try log.forEachEntry(from: 1) { entry in print(entry.seq, entry.record.action) }
/// let report = try log.verify()
/// ```
///
/// One process writes a log at a time; `append` calls are serialized.
public final class ActionLog: Sendable {
  /// Tunables of a log.
  public struct Options: Sendable {
    /// Entries between two signed checkpoints.
    public var checkpointInterval: Int64 = 1024
    /// When set, the database may not grow past this many pages (a quota; tests use it to make
    /// the disk "full").
    public var maximumPageCount: Int?
    /// Told each checkpoint once it is signed and stored: the daemon writes it to its own log
    /// output, a second copy outside the home that someone who can edit the home cannot
    /// rewrite. Called in the writer's turn; it must not call back into the log.
    public var onCheckpoint: (@Sendable (Checkpoint) -> Void)?

    public init(
      checkpointInterval: Int64 = 1024, maximumPageCount: Int? = nil,
      onCheckpoint: (@Sendable (Checkpoint) -> Void)? = nil
    ) {
      self.checkpointInterval = checkpointInterval
      self.maximumPageCount = maximumPageCount
      self.onCheckpoint = onCheckpoint
    }
  }

  /// Where the log is, for messages.
  public let path: String
  /// The log's random id; every seal and the chain are bound to it.
  public let logID: [UInt8]
  /// The Ed25519 public key that verifies this log's checkpoints and exports.
  public let publicKey: [UInt8]
  /// The file beside the database holding the latest signed checkpoint.
  public let checkpointFile: URL
  /// The file beside the database holding the public key, in hex.
  public let publicKeyFile: URL

  let database: DatabasePool
  let keys: LogKeys
  let options: Options
  /// The part of every entry's associated data that is the same for the whole log.
  let entryAssociatedDataPrefix: [UInt8]
  private let sealedSigningKey: (nonce: [UInt8], ciphertext: [UInt8])
  let tail: Mutex<Tail>

  /// The end of the chain, as committed.
  struct Tail {
    var seq: Int64
    var head: [UInt8]
    /// The newest checkpoint in the database.
    var checkpointedSeq: Int64
    /// A checkpoint in the database that the file beside it does not hold yet, and why.
    var unwrittenCheckpoint: (checkpoint: Checkpoint, failure: LogError)?
  }

  /// The last seq in the log (0 when it is empty).
  public var lastSeq: Int64 { tail.withLock { $0.seq } }
  /// Why the newest checkpoint could not be written to ``checkpointFile`` (a full disk, say),
  /// or nil when the file holds it. Until it is written, a tail cut off the database goes
  /// unnoticed; the next checkpoint, and ``close()``, try again.
  public var checkpointFileFailure: LogError? { tail.withLock { $0.unwrittenCheckpoint?.failure } }
  /// The chain hash after the last entry.
  public var head: [UInt8] { tail.withLock { $0.head } }

  // MARK: - Opening

  /// Opens the log at `url`, creating it when it does not exist.
  ///
  /// The key is checked before anything else is read or written: a wrong key or passphrase
  /// throws ``LogError/wrongKey(path:)``.
  public static func open(at url: URL, key source: KeySource, options: Options = Options()) throws(LogError) -> ActionLog {
    let path = url.path
    do {
      try Sodium.initialize()
    } catch {
      throw .io(path: path, reason: error.description)
    }
    let database = try openDatabase(at: path, options: options)
    do {
      let existing = try database.read { db in try Meta.load(db, path: url.path) }
      let migrator = migrator()
      if try database.read({ db in try migrator.hasBeenSuperseded(db) }) { throw LogError.newerSchema(path: path) }
      if let existing {
        let keys = try unlock(existing, with: source, path: path)
        try migrator.migrate(database)
        let log = try ActionLog(path: url, database: database, keys: keys, meta: existing, options: options)
        // A log left empty by a stop between its creation and its checkpoint file: with no
        // entry there is nothing the file could hide, so it is written now. Best effort; a
        // log with entries and no file is for verify to report, not for opening to mend.
        if log.lastSeq == 0, try DurableFile.read(log.checkpointFile.path) == nil { try? log.writeGenesisCheckpoint() }
        return log
      }
      try refuseCutShort(url, lastSeq: 0, logID: nil)
      try migrator.migrate(database)
      let (meta, keys) = try create(with: source, path: path)
      try database.write { db in try meta.save(db) }
      let log = try ActionLog(path: url, database: database, keys: keys, meta: meta, options: options)
      try DurableFile.write(Array((meta.signingPublic.hex + "\n").utf8), to: log.publicKeyFile.path)
      try log.writeGenesisCheckpoint()
      return log
    } catch let error as LogError {
      throw error
    } catch {
      throw openFailure(path: path, error)
    }
  }

  /// The checkpoint file outlives a database cut short: refuses to open (and so to write over
  /// the file, the only evidence) a log that ends before the entry the file vouches for. With no
  /// `logID`, the database holds no log at all: any checkpoint file then vouches for a log whose
  /// data was lost (its `-wal` file deleted after a crash, say), and a new log must not be
  /// started over the evidence.
  private static func refuseCutShort(_ url: URL, lastSeq: Int64, logID: [UInt8]?) throws(LogError) {
    let file = checkpointURL(for: url)
    guard let bytes = try DurableFile.read(file.path),
      case let .checkpoint(vouchedLogID, vouched) = CheckpointFile.newest(in: bytes)
    else { return }
    guard let logID else {
      // A file that vouches for no entry (a new log's) is no evidence of anything lost.
      guard vouched.seq > 0 else { return }
      throw LogError.corruptEntry(
        seq: 1,
        reason: "truncated tail: \(url.path) holds no log, but \(file.path) vouches for entry \(vouched.seq) of log \(vouchedLogID.hex) (was its -wal file deleted?); move the checkpoint file away to start a new log")
    }
    guard vouchedLogID == logID, vouched.seq > lastSeq else { return }
    throw LogError.corruptEntry(
      seq: lastSeq + 1,
      reason: "truncated tail: the log ends at entry \(lastSeq), but \(file.path) vouches for entry \(vouched.seq)")
  }

  /// Where the latest checkpoint of the log at `url` is kept outside the database.
  private static func checkpointURL(for url: URL) -> URL {
    URL(fileURLWithPath: url.path + ".checkpoint")
  }

  /// Why a database could not be opened: not a log at all, or a log that cannot be written.
  private static func openFailure(path: String, _ error: any Error) -> LogError {
    if let error = error as? DatabaseError,
      [.SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_IOERR, .SQLITE_FULL].contains(error.resultCode)
    {
      return .writeFailed(path: path, reason: describe(error))
    }
    return .notALog(path: path, reason: describe(error))
  }

  private init(path url: URL, database: DatabasePool, keys: LogKeys, meta: Meta, options: Options) throws {
    self.path = url.path
    self.database = database
    self.keys = keys
    self.options = options
    self.logID = meta.logID
    self.entryAssociatedDataPrefix = EntryCodec.associatedDataPrefix(logID: meta.logID, keyID: keys.keyID)
    self.publicKey = meta.signingPublic
    self.sealedSigningKey = (meta.signingSecretNonce, meta.signingSecret)
    self.checkpointFile = Self.checkpointURL(for: url)
    self.publicKeyFile = URL(fileURLWithPath: url.path + ".pub")
    let logID = meta.logID
    let last = try database.read { db in
      try Row.fetchOne(db, sql: "SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1")
    }
    let checkpointed = try database.read { db in
      try Int64.fetchOne(db, sql: "SELECT max(seq) FROM checkpoints") ?? 0
    }
    let lastSeq: Int64 = last?[0] ?? 0
    try Self.refuseCutShort(url, lastSeq: lastSeq, logID: logID)
    self.tail = Mutex(
      Tail(
        seq: lastSeq,
        head: last.map { [UInt8]($0[1] as Data) } ?? EntryCodec.genesis(logID: logID),
        checkpointedSeq: checkpointed))
  }

  private static func openDatabase(at path: String, options: Options) throws(LogError) -> DatabasePool {
    var configuration = Configuration()
    configuration.label = "concord.log"
    let maximumPageCount = options.maximumPageCount
    if let maximumPageCount {
      configuration.prepareDatabase { db in
        _ = try Row.fetchOne(db, sql: "PRAGMA max_page_count = \(maximumPageCount)")
      }
    }
    do {
      // The database holds nothing readable, but it is still nobody else's business; its -wal
      // and -shm take its mode when SQLite makes them.
      PrivateDatabaseFile.prepare(path)
      let pool = try DatabasePool(path: path, configuration: configuration)
      // A commit must survive a power loss, not only a crash of the process.
      try FullSync.require(on: pool)
      return pool
    } catch let error as FullSync.NotTaken {
      throw .writeFailed(path: path, reason: error.description)
    } catch {
      throw openFailure(path: path, error)
    }
  }

  static func migrator() -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for migration in LogSchema.migrations {
      migrator.registerMigration(migration.name) { db in try db.execute(sql: migration.sql) }
    }
    return migrator
  }

  /// Keys for a new log, and the settings that let them be found again.
  private static func create(with source: KeySource, path: String) throws(LogError) -> (Meta, LogKeys) {
    let master: SecretBytes
    var meta = Meta(logID: Crypto.randomBytes(16))
    switch source {
    case let .file(url):
      master = try KeyFile.load(url, create: true)
      meta.keyKind = "file"
    case let .passphrase(passphrase, limits):
      master = SecretBytes.random(count: Crypto.keyBytes)
      let salt = Crypto.randomBytes(Crypto.saltBytes)
      guard
        let wrapping = Crypto.deriveFromPassphrase(
          passphrase, salt: salt, opsLimit: limits.operations, memLimit: limits.memory)
      else { throw .io(path: path, reason: "not enough memory to derive a key from the passphrase") }
      meta.keyKind = "passphrase"
      meta.kdf = Meta.KDF(
        algorithm: "argon2id13", salt: salt, operations: limits.operations, memory: limits.memory)
      let sealed = master.withUnsafeBytes {
        Crypto.seal($0, associatedData: Meta.wrapAssociatedData(meta.logID), key: wrapping)
      }
      meta.wrappedKeyNonce = sealed.nonce
      meta.wrappedKey = sealed.ciphertext
    }
    let keys = LogKeys(master: master)
    meta.keyID = keys.keyID
    let signing = Crypto.signingKeyPair()
    meta.signingPublic = signing.publicKey
    let sealed = signing.secretKey.withUnsafeBytes {
      Crypto.seal($0, associatedData: Meta.signingAssociatedData(meta.logID), key: keys.signing)
    }
    meta.signingSecretNonce = sealed.nonce
    meta.signingSecret = sealed.ciphertext
    return (meta, keys)
  }

  /// The keys of an existing log, or ``LogError/wrongKey(path:)``.
  private static func unlock(_ meta: Meta, with source: KeySource, path: String) throws(LogError) -> LogKeys {
    let master: SecretBytes
    switch source {
    case let .file(url):
      guard meta.keyKind == "file" else { throw .keyKindMismatch(path: path, expected: "a passphrase") }
      master = try KeyFile.load(url, create: false)
    case let .passphrase(passphrase, _):
      guard meta.keyKind == "passphrase", let kdf = meta.kdf else {
        throw .keyKindMismatch(path: path, expected: "a key file")
      }
      guard kdf.algorithm == "argon2id13" else {
        throw .notALog(path: path, reason: "unknown key derivation \(kdf.algorithm)")
      }
      guard
        let wrapping = Crypto.deriveFromPassphrase(
          passphrase, salt: kdf.salt, opsLimit: kdf.operations, memLimit: kdf.memory)
      else { throw .io(path: path, reason: "not enough memory to derive a key from the passphrase") }
      guard
        let unwrapped = Crypto.openSecret(
          meta.wrappedKey, nonce: meta.wrappedKeyNonce,
          associatedData: Meta.wrapAssociatedData(meta.logID), key: wrapping)
      else { throw .wrongKey(path: path) }
      master = unwrapped
    }
    let keys = LogKeys(master: master)
    guard Crypto.equal(keys.keyID, meta.keyID) else { throw .wrongKey(path: path) }
    return keys
  }

  /// A checkpoint of `(seq, head)`, signed with the log's key. The secret key is opened for this
  /// one signature and dropped (zeroed) after.
  func signedCheckpoint(seq: Int64, head: [UInt8]) throws(LogError) -> Checkpoint {
    guard
      let secret = Crypto.openSecret(
        sealedSigningKey.ciphertext, nonce: sealedSigningKey.nonce,
        associatedData: Meta.signingAssociatedData(logID), key: keys.signing)
    else { throw .notALog(path: path, reason: "the signing key cannot be opened") }
    let message = EntryCodec.checkpointMessage(logID: logID, seq: seq, head: head)
    return Checkpoint(seq: seq, head: head, signature: Crypto.sign(message, secretKey: secret))
  }

  /// Runs a read of the database; a database error becomes ``LogError/readFailed(path:reason:)``.
  func reading<T>(_ body: () throws -> T) throws(LogError) -> T {
    try translatingErrors(into: LogError.readFailed, body)
  }

  /// Runs a write to the database; a database error becomes
  /// ``LogError/writeFailed(path:reason:)``.
  func writing<T>(_ body: () throws -> T) throws(LogError) -> T {
    try translatingErrors(into: LogError.writeFailed, body)
  }

  /// A ``LogError`` passes through; any other error becomes `failure(path, reason)`.
  private func translatingErrors<T>(
    into failure: (String, String) -> LogError, _ body: () throws -> T
  ) throws(LogError) -> T {
    do {
      return try body()
    } catch let error as LogError {
      throw error
    } catch {
      throw failure(path, Self.describe(error))
    }
  }

  /// A one-line reason for a database error.
  static func describe(_ error: any Error) -> String {
    guard let error = error as? DatabaseError else { return "\(error)" }
    switch error.resultCode {
    case .SQLITE_FULL: return "the disk is full (or the log reached its size limit)"
    case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
      return "the database cannot be opened for writing (\(error.message ?? "permission denied"))"
    case .SQLITE_NOTADB: return "the file is not a database"
    case .SQLITE_CORRUPT: return "the database file is corrupt"
    case .SQLITE_IOERR: return "an I/O error occurred (\(error.message ?? "no detail"))"
    default: return error.message ?? "\(error)"
    }
  }
}
