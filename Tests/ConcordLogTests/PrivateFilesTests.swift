import ConcordLog
import Foundation
import Testing

/// The log's database and the `-wal` and `-shm` files SQLite makes beside it are the owner's
/// alone, whatever the umask.
@Suite struct PrivateFilesTests {
  @Test func theWALAndSharedMemoryFilesAreMode0600UnderUmask022() throws {
    let previous = umask(0o022)
    defer { umask(previous) }
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append([record(1)])
    for suffix in ["", "-wal", "-shm"] {
      let path = fixture.databaseURL.path + suffix
      let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
      #expect(mode == 0o600, "\(suffix.isEmpty ? "the database" : suffix) is \(String(mode, radix: 8))")
    }
  }
}
