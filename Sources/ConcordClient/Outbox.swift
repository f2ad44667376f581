import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// The client's durable side: the actions waiting for the daemon, and the last state seen of
/// each scope, in `outbox.sqlite` in `CONCORD_HOME` (mode 0600, every record sealed with the
/// user's key, like the log).
///
/// Every action a client sends goes through it: queued first with the next `cseq`, removed
/// only once the daemon answered. A send interrupted anywhere is sent again with the same
/// `(client, cseq)`, which the daemon answers with the original outcome — exactly once.
///
/// ```swift
/// let outbox = try Outbox.open(home: ConcordHome.resolve())
/// let queued = try outbox.enqueue(scope: "counter", action: ["increment": [:]])
/// // … send it; on ack or refusal:
/// try outbox.remove(cseq: queued.cseq)
/// ```
public final class Outbox: Sendable {
  /// This client's id: the `client` of every action it sends, made once per home.
  public let clientID: String
  let database: DatabaseQueue
  let sealer: LocalSealer
  private let memo = QueuedMemo()

  private init(database: DatabaseQueue, sealer: LocalSealer, clientID: String) {
    self.database = database
    self.sealer = sealer
    self.clientID = clientID
  }

  /// Opens (or creates) the outbox of `home`.
  public static func open(home: ConcordHome) throws(ClientError) -> Outbox {
    do {
      try FileManager.default.createDirectory(
        at: home.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      let sealer = try LocalSealer(keyFile: home.key, purpose: .outbox)
      let path = home.outbox.path
      // Mode 0600 before SQLite opens it, so its -wal and -shm are made 0600 too.
      PrivateDatabaseFile.prepare(path)
      var configuration = Configuration()
      // Several windows and commands share the file: they wait for each other's writes.
      configuration.busyMode = .timeout(10)
      configuration.journalMode = .wal
      let database = try openWaitingForOthers(path: path, configuration: configuration)
      // A queued action must survive a power loss: the window has told its user it is kept.
      try FullSync.require(on: database)
      // Idempotent, in one transaction: two windows opening a new outbox at once both succeed.
      try immediate(database) { db in
        try db.execute(sql: """
          CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
          CREATE TABLE IF NOT EXISTS pending (cseq INTEGER PRIMARY KEY, queued_at REAL NOT NULL, sealed BLOB NOT NULL);
          CREATE TABLE IF NOT EXISTS seen (tag TEXT PRIMARY KEY, sealed BLOB NOT NULL);
          CREATE TABLE IF NOT EXISTS witness (id INTEGER PRIMARY KEY CHECK (id = 1), sealed BLOB NOT NULL);
          CREATE TABLE IF NOT EXISTS history (tag TEXT PRIMARY KEY, sealed BLOB NOT NULL);
          CREATE TABLE IF NOT EXISTS refused (cseq INTEGER PRIMARY KEY, sealed BLOB NOT NULL);
          """)
      }
      let clientID = try immediate(database) { db in
        if let id = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'client_id'") { return id }
        // The whole UUID: exactly-once is keyed on (client, cseq), so two homes must never
        // draw the same id.
        let id = "c-" + UUID().uuidString.lowercased()
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('client_id', ?)", arguments: [id])
        return id
      }
      let outbox = Outbox(database: database, sealer: sealer, clientID: clientID)
      try immediate(database) { db in try outbox.adoptLegacyLogID(in: db) }
      return outbox
    } catch let error as LogError {
      throw .local("the outbox cannot use the key: \(error)")
    } catch {
      throw .local("the outbox at \(home.outbox.path) cannot be opened: \(error)")
    }
  }

  /// Opens the database, waiting (up to 10 s) while another process holds it: switching a new
  /// file to WAL needs it alone, and SQLite answers that at once with "database is locked"
  /// rather than through the busy timeout — two windows started together on a new home meet it.
  private static func openWaitingForOthers(path: String, configuration: Configuration) throws -> DatabaseQueue {
    var busy: DatabaseError?
    let opened = try Waiting.until(10, every: 0.02) { () throws -> DatabaseQueue? in
      do {
        return try DatabaseQueue(path: path, configuration: configuration)
      } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
        busy = error
        return nil
      }
    }
    guard let opened else { throw busy! }
    return opened
  }

  // MARK: - Queued actions

  /// Queues an action with the next `cseq`; durable when this returns. Its texts are kept in NFC,
  /// as the daemon will take them, so a window shows it offline as it will be logged.
  ///
  /// - Parameters:
  ///   - scope: the scope the action is for (`board`, `card:42`).
  ///   - action: the scope's action, as JSON.
  ///   - typed: the words a person typed for it (`move 2 done`), to name it by them if
  ///     it is refused when resent.
  /// - Returns: the action as queued, with its `cseq`.
  @discardableResult
  public func enqueue(scope: String, action: JSONValue, typed: String? = nil) throws(ClientError) -> QueuedAction {
    try access { db in
      let last = try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'last_cseq'") ?? 0
      let cseq = last + 1
      let queued = QueuedAction(cseq: cseq, scope: scope.nfc, action: action.nfc, queuedAt: Date(), typed: typed)
      try db.execute(
        sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('last_cseq', ?)", arguments: [String(cseq)])
      try db.execute(
        sql: "INSERT INTO pending (cseq, queued_at, sealed) VALUES (?, ?, ?)",
        arguments: [cseq, queued.queuedAt.timeIntervalSince1970, Data(seal(queued))])
      return queued
    }
  }

  /// The queued actions, oldest first. Cheap to ask again: what was opened before is not
  /// opened again (the outbox keeps what it last opened, and reads the file again only when a
  /// window or command of the home wrote to it).
  public func queued() throws(ClientError) -> [QueuedAction] {
    try reading { db in
      let version = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
      if let unchanged = memo.unchanged(version: version) { return unchanged }
      let read = try Row.fetchAll(db, sql: "SELECT cseq, queued_at, sealed FROM pending ORDER BY cseq").map { row in
        let cseq: Int64 = row["cseq"]
        let sealed: Data = row["sealed"]
        if let known = memo.opened(cseq, sealed: sealed) { return (sealed, known) }
        guard let fields = openObject(sealed, place: Self.place(cseq)),
          let queued = QueuedAction(cseq: cseq, queuedAt: Date(timeIntervalSince1970: row["queued_at"]), fields: fields)
        else { throw ClientError.local("queued action \(cseq) does not open with this key") }
        return (sealed, queued)
      }
      memo.keep(read, version: version)
      return read.map(\.1)
    }
  }

  /// How many actions wait, every window's and command's of the home: the number a window shows
  /// while offline. Cheaper than ``queued()``: nothing is opened.
  public func count() throws(ClientError) -> Int {
    try reading { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM pending") ?? 0 }
  }

  /// The daemon answered the action: it leaves the outbox, and the entry it answered with, if
  /// any, is witnessed.
  ///
  /// - Parameters:
  ///   - cseq: the answered action's number.
  ///   - entry: the log's entry the daemon answered with, if it named one: the outbox witnesses
  ///     it (``witnessed()``).
  ///   - refusal: the action and the daemon's reason, for an action it refused when
  ///     resent: kept for every window of the home to show (``refusedOnResend()``) until a person
  ///     dismisses it.
  public func remove(
    cseq: Int64, answeredAt entry: LogPosition? = nil, refusedOnResend refusal: (action: QueuedAction, reason: String)? = nil
  ) throws(ClientError) {
    let refused = refusal.map { sealRefused($0.action, $0.reason) }
    // Not synced: a removal a power cut takes back only sends the action again, which the
    // daemon answers from its log without applying it twice. Enqueueing is what must last.
    try access(synced: false) { db in
      try db.execute(sql: "DELETE FROM pending WHERE cseq = ?", arguments: [cseq])
      if let entry { try witness(entry, in: db) }
      if let refused { try keepRefused(cseq: cseq, sealed: refused, in: db) }
    }
  }

  /// Drops queued actions without sending them; returns how many went.
  ///
  /// - Parameter cseq: the one action to drop; nil drops them all.
  @discardableResult
  public func drop(cseq: Int64? = nil) throws(ClientError) -> Int {
    try access { db in
      if let cseq {
        try db.execute(sql: "DELETE FROM pending WHERE cseq = ?", arguments: [cseq])
      } else {
        try db.execute(sql: "DELETE FROM pending")
      }
      return db.changesCount
    }
  }

  // MARK: - The last states seen

  /// Keeps a scope's state as last seen, to show it when the daemon is away; its position is
  /// witnessed.
  public func remember(_ seen: SeenState) throws(ClientError) {
    let tag = Self.tag(of: seen.scope, by: sealer)
    let object: JSONValue = [
      "scope": .string(seen.scope), "log_id": .string(seen.logID), "seq": .integer(seen.seq), "state": seen.state,
    ]
    let sealed = sealer.seal(Array(object.jsonText.utf8), associatedData: Array("seen/\(tag)".utf8))
    // Not synced: a state seen is only shown while the daemon is away; an older one will do.
    try access(synced: false) { db in
      try db.execute(sql: "INSERT OR REPLACE INTO seen (tag, sealed) VALUES (?, ?)", arguments: [tag, Data(sealed)])
      try witness(LogPosition(logID: seen.logID, seq: seen.seq), in: db)
    }
  }

  /// The keyed hash a scope's last state is kept under: of its name in NFC, so that however a
  /// person typed `chat:café`, it is one cache, as it is one scope to the daemon.
  private static func tag(of scope: String, by sealer: LocalSealer) -> String { sealer.tag(scope.nfc) }

  /// A scope's state as last seen, if it was.
  public func lastSeen(_ scope: String) throws(ClientError) -> SeenState? {
    let tag = Self.tag(of: scope, by: sealer)
    let sealed = try reading { db in try Data.fetchOne(db, sql: "SELECT sealed FROM seen WHERE tag = ?", arguments: [tag]) }
    guard let sealed, let opened = sealer.open([UInt8](sealed), associatedData: Array("seen/\(tag)".utf8)),
      case let .object(fields)? = try? JSONParser.parse(opened), case let .string(logID)? = fields["log_id"],
      let seq = fields["seq"]?.int64, let state = fields["state"]
    else { return nil }
    return SeenState(scope: scope, logID: logID, seq: seq, state: state)
  }

  // MARK: -

  private func seal(_ queued: QueuedAction) -> [UInt8] {
    sealer.seal(Array(JSONValue.object(queued.fields).jsonText.utf8), associatedData: Self.place(queued.cseq))
  }

  /// The JSON object sealed in `sealed` at `place`; nil when it does not open with this key.
  func openObject(_ sealed: Data, place: [UInt8]) -> [String: JSONValue]? {
    guard let opened = sealer.open([UInt8](sealed), associatedData: place),
      case let .object(fields)? = try? JSONParser.parse(opened)
    else { return nil }
    return fields
  }

  /// Runs `work` in an IMMEDIATE transaction whose commit is synced to disk, or not. Each call
  /// sets the level it needs before it begins, so an unsynced commit can never leave the next
  /// one unsynced: an unsynced one is taken to disk by the next synced commit.
  private static func immediate<T>(
    _ database: DatabaseQueue, synced: Bool = true, _ work: (Database) throws -> T
  ) throws -> T {
    try database.writeWithoutTransaction { db in
      try db.execute(sql: synced ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
      var result: T?
      try db.inTransaction(.immediate) {
        result = try work(db)
        return .commit
      }
      return result!
    }
  }

  private static func place(_ cseq: Int64) -> [UInt8] { Array("pending/\(cseq)".utf8) }

  /// Runs `work`, which only reads, without the write lock: redraws read the outbox often, and
  /// every window and command of a home shares it.
  func reading<T>(_ work: (Database) throws -> T) throws(ClientError) -> T {
    try translatingErrors("read") { try database.read(work) }
  }

  /// Runs `work` in an IMMEDIATE transaction: it takes the write lock first, so two processes
  /// never both read and then both try to write (which SQLite answers with "busy" at once,
  /// without waiting).
  func access<T>(synced: Bool = true, _ work: (Database) throws -> T) throws(ClientError) -> T {
    try translatingErrors("used") {
      try Self.immediate(database, synced: synced) { db in
        // Counted inside the write: no read of this connection comes between it and the count.
        memo.wrote()
        return try work(db)
      }
    }
  }

  private func translatingErrors<T>(_ verb: String, _ body: () throws -> T) throws(ClientError) -> T {
    do {
      return try body()
    } catch let error as ClientError {
      throw error
    } catch {
      throw .local("the outbox could not be \(verb): \(error)")
    }
  }
}

/// An action waiting in the outbox: what ``Outbox/enqueue(scope:action:typed:)`` returns and
/// ``Outbox/queued()`` lists, sent again with the same `cseq` until the daemon answers it.
public struct QueuedAction: Sendable, Equatable {
  /// The client's sequence number for the action: with the outbox's ``Outbox/clientID``, the
  /// key the daemon answers a repeat by, so that it is applied once however often it is sent.
  public var cseq: Int64
  /// The scope it is sent to, in NFC, as the daemon names it.
  public var scope: String
  /// The scope's action, as JSON (its texts in NFC).
  public var action: JSONValue
  /// When it was queued: a window predicts the action as made at this time, as the daemon will
  /// record it at about the same.
  public var queuedAt: Date
  /// The words a person typed for it, when it was typed as words.
  public var typed: String?

  /// An action as queued; ``Outbox/enqueue(scope:action:typed:)`` makes them.
  ///
  /// - Parameters:
  ///   - cseq: its number in the outbox.
  ///   - scope: the scope it is for.
  ///   - action: the scope's action, as JSON.
  ///   - queuedAt: when it was queued.
  ///   - typed: the words a person typed for it, if it was typed as words.
  public init(cseq: Int64, scope: String, action: JSONValue, queuedAt: Date, typed: String? = nil) {
    self.cseq = cseq
    self.scope = scope
    self.action = action
    self.queuedAt = queuedAt
    self.typed = typed
  }

  /// What the outbox seals of it: the scope, the action and the words typed.
  var fields: [String: JSONValue] {
    var fields: [String: JSONValue] = ["scope": .string(scope), "action": action]
    if let typed { fields["typed"] = .string(typed) }
    return fields
  }

  init?(cseq: Int64, queuedAt: Date, fields: [String: JSONValue]) {
    guard case let .string(scope)? = fields["scope"], let action = fields["action"] else { return nil }
    var typed: String?
    if case let .string(text)? = fields["typed"] { typed = text }
    self.init(cseq: cseq, scope: scope, action: action, queuedAt: queuedAt, typed: typed)
  }
}

/// A scope's state as a window last saw it, and where: what it shows while the daemon is away,
/// and the point it asks the daemon's changes from when it attaches again.
public struct SeenState: Sendable, Equatable {
  /// The scope (`board`, `card:42`).
  public var scope: String
  /// The id of the daemon's log the state came from.
  public var logID: String
  /// The log's seq the state is as of.
  public var seq: Int64
  /// The scope's state, as the daemon sent it.
  public var state: JSONValue

  /// A state seen of `scope` at `seq` of log `logID`.
  ///
  /// - Parameters:
  ///   - scope: the scope.
  ///   - logID: the id of the log the state came from.
  ///   - seq: the seq it is as of.
  ///   - state: the scope's state.
  public init(scope: String, logID: String, seq: Int64, state: JSONValue) {
    self.scope = scope
    self.logID = logID
    self.seq = seq
    self.state = state
  }
}
