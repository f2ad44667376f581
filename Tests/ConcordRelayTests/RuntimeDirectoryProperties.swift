import Foundation
import Testing

@testable import ConcordClient

#if canImport(Glibc)
import Glibc
#endif

/// Where a laptop's relay socket and ssh's shared connection go: `XDG_RUNTIME_DIR` when its
/// paths would fit a Unix socket, else `/tmp`. Held to unix(7): `sun_path` is 108 bytes with its
/// terminating NUL, and ssh's control socket is the directory, `/cm-`, 40 hex digits and, while
/// ssh makes it, a 17-character temporary suffix.
@Suite struct RuntimeDirectoryProperties {
  static let sunPathBytes = 108

  @Test func everySocketMadeThereFitsWhateverTheRuntimeDirectory() throws {
    let root = URL(filePath: "/tmp").appending(path: "rtd-\(UUID().uuidString.prefix(6))")
    defer { try? FileManager.default.removeItem(at: root) }
    let target = try SSHTarget("ssh://someone@a-server.example/srv/concord/home")
    var sawFallback = false
    var sawOwn = false
    for length in stride(from: root.path.utf8.count + 2, through: 220, by: 3) {
      // A directory path of exactly `length` bytes, in segments a file system takes.
      var path = root.path
      while path.utf8.count < length {
        let room = length - path.utf8.count - 1
        path += "/" + String(repeating: "d", count: min(max(room, 1), 60))
      }
      let directory = SSHTransport.runtimeDirectory(["XDG_RUNTIME_DIR": path])
      let relay = RelayLink.socketPath(for: target, environment: ["XDG_RUNTIME_DIR": path])
      let control = directory.path + "/cm-" + String(repeating: "f", count: 40) + "." + String(repeating: "t", count: 16)
      #expect(relay.utf8.count < Self.sunPathBytes, "\(length): the relay's socket \(relay) is \(relay.utf8.count) bytes")
      #expect(control.utf8.count < Self.sunPathBytes, "\(length): ssh's socket would be \(control.utf8.count) bytes")
      if directory.path.hasPrefix(path) { sawOwn = true } else { sawFallback = true }
      // Nothing longer than it needs: a directory whose sockets fit is used as it is.
      if (path + "/concord-\(getuid())/cm-").utf8.count + 40 + 17 < Self.sunPathBytes {
        #expect(directory.path.hasPrefix(path), "\(length): \(path) would have fitted")
      }
    }
    #expect(sawOwn && sawFallback)
  }
}
