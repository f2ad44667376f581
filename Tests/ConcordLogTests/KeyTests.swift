import ConcordLog
import Foundation
import Synchronization
import Testing

@Suite struct KeyTests {
  @Test func theKeyFileIsCreatedPrivateAndAnotherKeyIsRefused() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append([record(1)])
    let attributes = try FileManager.default.attributesOfItem(atPath: fixture.keyURL.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect((attributes[.size] as? Int) == 32)

    // Someone replaces the key file with another key.
    try FileManager.default.removeItem(at: fixture.keyURL)
    let other = LogFixture()
    _ = try other.open()
    try FileManager.default.copyItem(at: other.keyURL, to: fixture.keyURL)
    #expect(throws: LogError.wrongKey(path: fixture.databaseURL.path)) { try fixture.open() }
    #expect("\(LogError.wrongKey(path: "/x/log.sqlite"))" == "wrong key for log /x/log.sqlite")
  }

  @Test func threadsMakingTheSameNewKeyAtOnceAllGetTheOneOnDisk() throws {
    // A daemon and a client in one process, starting on a new home: each may be the one that
    // writes the key, and every one must end up with the key the file holds.
    for _ in 0..<20 {
      let fixture = LogFixture()
      let keyURL = fixture.keyURL
      let sealers = Mutex<[LocalSealer]>([])
      let failures = Mutex<[String]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        do {
          let sealer = try LocalSealer(keyFile: keyURL, purpose: .outbox)
          sealers.withLock { $0.append(sealer) }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
      let onDisk = try LocalSealer(keyFile: fixture.keyURL, purpose: .outbox)
      let sealed = onDisk.seal(Array("hello".utf8), associatedData: [])
      for sealer in sealers.withLock({ $0 }) {
        #expect(sealer.open(sealed, associatedData: []) == Array("hello".utf8))
      }
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path).filter { $0.contains(".new-") }
      #expect(leftovers.isEmpty, "\(leftovers)")
    }
  }

  @Test func aKeyFileOthersCanReadIsRefusedLikeSSHDoes() throws {
    let fixture = LogFixture()
    _ = try fixture.open()
    chmod(fixture.keyURL.path, 0o644)
    #expect(throws: LogError.keyFileTooOpen(path: fixture.keyURL.path, mode: 0o644)) { try fixture.open() }
  }

  @Test func aMissingKeyFileForAnExistingLogIsNotSilentlyReplaced() throws {
    let fixture = LogFixture()
    try fixture.open().append([record(1)])
    try FileManager.default.removeItem(at: fixture.keyURL)
    #expect(throws: LogError.self) { try fixture.open() }
    #expect(!FileManager.default.fileExists(atPath: fixture.keyURL.path))
  }

  @Test func aPassphraseOpensTheLogAndAWrongOneIsDetectedAtOpen() throws {
    let fixture = LogFixture()
    let passphrase = Array("correct horse battery staple".utf8)
    let log = try ActionLog.open(at: fixture.databaseURL, key: .passphrase(passphrase, limits: .minimum))
    try log.append([record(1)])
    let again = try ActionLog.open(at: fixture.databaseURL, key: .passphrase(passphrase, limits: .minimum))
    var records: [LogRecord] = []
    try again.forEachEntry { records.append($0.record) }
    #expect(records == [record(1)])
    #expect(throws: LogError.wrongKey(path: fixture.databaseURL.path)) {
      try ActionLog.open(at: fixture.databaseURL, key: .passphrase(Array("wrong".utf8), limits: .minimum))
    }
  }

  @Test func aLogFromANewerVersionIsRefusedWithAClearMessage() throws {
    let fixture = LogFixture()
    _ = try fixture.open()
    try fixture.tamper("INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
    #expect(throws: LogError.newerSchema(path: fixture.databaseURL.path)) { try fixture.open() }
  }

  @Test func aFileThatIsNotALogIsRefused() throws {
    let fixture = LogFixture()
    try Data("hello, not a database at all, just some text that goes on".utf8).write(to: fixture.databaseURL)
    #expect(throws: LogError.self) { try fixture.open() }
  }

  @Test func someoneElsesDatabaseIsRefusedNamingItsPath() throws {
    let fixture = LogFixture()
    try fixture.tamper("CREATE TABLE people (name TEXT)")
    #expect(throws: LogError.notALog(path: fixture.databaseURL.path, reason: "it has no Concord settings")) {
      try fixture.open()
    }
  }

  @Test func aKeyFileOfTheWrongSizeIsNotAKey() throws {
    let fixture = LogFixture()
    #expect(
      FileManager.default.createFile(
        atPath: fixture.keyURL.path, contents: Data("not a key\n".utf8), attributes: [.posixPermissions: 0o600]))
    #expect(throws: LogError.keyFileMalformed(path: fixture.keyURL.path, reason: "it must hold exactly 32 bytes")) {
      try fixture.open()
    }
  }

  @Test func aLogOpenedWithTheOtherKindOfKeySaysWhichItWants() throws {
    let fixture = LogFixture()
    _ = try fixture.open()
    #expect(throws: LogError.keyKindMismatch(path: fixture.databaseURL.path, expected: "a key file")) {
      try ActionLog.open(at: fixture.databaseURL, key: .passphrase(Array("pw".utf8), limits: .minimum))
    }

    let vault = LogFixture()
    _ = try ActionLog.open(at: vault.databaseURL, key: .passphrase(Array("pw".utf8), limits: .minimum))
    #expect(throws: LogError.keyKindMismatch(path: vault.databaseURL.path, expected: "a passphrase")) {
      try vault.open()
    }
    // An empty passphrase is just another wrong one.
    #expect(throws: LogError.wrongKey(path: vault.databaseURL.path)) {
      try ActionLog.open(at: vault.databaseURL, key: .passphrase([], limits: .minimum))
    }
  }
}
