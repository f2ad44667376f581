import ConcordPlatform
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The one way a listening socket is made (the daemon's and the relay's): born this account's
/// alone, replacing a socket a crashed listener left, never anything else.
@Suite struct UnixSocketTests {
  static func directory() throws -> URL {
    let url = URL(filePath: "/tmp").appending(path: "us-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func aListeningSocketIsBornTheOwnersAloneAndAnswers() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appending(path: "a.sock").path
    let listener = try UnixSocket.listen(at: path, backlog: 4)
    defer { close(listener) }
    var info = stat()
    #expect(lstat(path, &info) == 0)
    #expect(info.st_mode & S_IFMT == S_IFSOCK)
    #expect(info.st_mode & 0o777 == 0o600)
    let client = try UnixSocket.connect(to: path)
    close(client)
  }

  @Test func aSocketLeftByACrashedListenerIsReplaced() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appending(path: "a.sock").path
    // A listener that went away without removing its socket.
    close(try UnixSocket.listen(at: path, backlog: 4))
    #expect(throws: UnixSocketError.self) { try UnixSocket.connect(to: path) }
    let listener = try UnixSocket.listen(at: path, backlog: 4)
    defer { close(listener) }
    close(try UnixSocket.connect(to: path))
  }

  @Test func anythingElseAtThePathIsRefusedAndLeftAlone() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appending(path: "notes.txt").path
    try "keep me".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: UnixSocketError.local("\(path) exists and is not a socket; refusing to replace it")) {
      try UnixSocket.listen(at: path, backlog: 4)
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
  }

  @Test func aPathLongerThanASocketsAddressIsSaidSo() throws {
    let path = "/tmp/" + String(repeating: "x", count: UnixSocket.maximumPathBytes)
    #expect(throws: UnixSocketError.local("the socket path is too long: \(path)")) { try UnixSocket.listen(at: path, backlog: 1) }
    #expect(throws: UnixSocketError.unreachable("the socket path is too long: \(path)")) { try UnixSocket.connect(to: path) }
  }
}
