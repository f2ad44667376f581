import Foundation

/// A connection to the daemon made on a thread of its own, for a caller that must not wait for
/// it: through ssh, a login can take seconds (a host that does not answer keeps `ssh` until its
/// `ConnectTimeout`), and a window takes keys meanwhile.
///
/// ```swift
/// let attempt = ConnectionAttempt(address: .ssh(target), presence: true)
/// // … later, every turn of the window's loop:
/// if let outcome = attempt.take() { let connection = try outcome.get() }
/// ```
final class ConnectionAttempt: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Result<ClientConnection, ClientError>?

  /// Starts connecting to `address` at once.
  init(address: DaemonAddress, presence: Bool) {
    Thread { [self] in
      let made = Result { () throws(ClientError) in try ClientConnection(address: address, presence: presence) }
      lock.withLock { result = made }
    }.start()
  }

  /// The connection, greeted, or why there is none; nil while the attempt goes on. Given once:
  /// the connection is then the caller's alone.
  func take() -> Result<ClientConnection, ClientError>? {
    lock.withLock {
      defer { result = nil }
      return result
    }
  }
}
