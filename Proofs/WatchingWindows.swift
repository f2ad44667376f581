import DaemonDriving
import Foundation
import Synchronization

/// Windows attached to scopes that read their updates (and answer the daemon's pings, as a
/// quiet window must), on one thread with poll(2), attaching again whenever the daemon comes
/// back after going away.
final class WatchingWindows: Sendable {
  private let socketPath: String
  private let scopes: [String]
  private let counts = Mutex((updates: 0, attaches: 0))

  /// `scopes[i]` is the scope of window `i`.
  init(socketPath: String, scopes: [String]) {
    self.socketPath = socketPath
    self.scopes = scopes
  }

  var updates: Int { counts.withLock { $0.updates } }
  /// Attaches made, the first ones included.
  var attaches: Int { counts.withLock { $0.attaches } }

  /// Reads until `mode` says stop (or drain).
  func run(mode: ClientMode) {
    var sockets: [LineSocket?] = Array(repeating: nil, count: scopes.count)
    while mode.current == .run || mode.current == .hold {
      for index in sockets.indices where sockets[index] == nil && mode.current == .run {
        sockets[index] = try? LineSocket.window(path: socketPath, scope: scopes[index])
        sockets[index]?.setNonBlocking()
        if sockets[index] != nil { counts.withLock { $0.attaches += 1 } }
      }
      let open = sockets.indices.filter { sockets[$0] != nil }
      guard !open.isEmpty else {
        usleep(20_000)
        continue
      }
      var pollers = open.map { pollfd(fd: sockets[$0]!.fd, events: Int16(POLLIN), revents: 0) }
      guard poll(&pollers, nfds_t(pollers.count), 50) > 0 else { continue }
      for (slot, index) in open.enumerated() where pollers[slot].revents != 0 {
        guard let socket = sockets[index], (try? socket.fill()) == true else {
          sockets[index] = nil
          continue
        }
        var received = 0
        while let line = socket.nextLine() {
          switch LineKind(line) {
          case .update: received += 1
          case .ping: try? socket.write(LineSocket.pong)
          default: continue
          }
        }
        counts.withLock { $0.updates += received }
      }
    }
  }
}

/// Runs `body` on a new thread; `wait()` on the returned group waits for its end.
func onThread(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
  group.enter()
  Thread {
    body()
    group.leave()
  }.start()
}
