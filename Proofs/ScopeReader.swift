import ConcordClient
import ConcordWire
import DaemonDriving
import Foundation

/// Reads one scope's state from a running daemon, as a window attaching to it would see it.
enum ScopeReader {
  /// The state of `scope` in the daemon serving `socket`, and the seq it is at.
  static func state(of scope: String, socket: String) throws -> (seq: Int64, state: JSONValue) {
    let connection = try ClientConnection(socket: URL(filePath: socket), timeout: 10, presence: false)
    defer { connection.close() }
    try connection.send(.attach(scope: scope, since: nil))
    while let message = try connection.receive(timeout: 10) {
      if case let .snapshot(_, seq, state, _) = message { return (seq, state) }
    }
    throw DriveError("the daemon closed before sending the snapshot of \(scope)")
  }

  /// The sample app's counter.
  static func counter(socket: String) throws -> Int64 {
    let (_, state) = try state(of: "counter", socket: socket)
    guard let count = state.int64 else {
      throw DriveError("the counter is not a number: \(state.jsonText)")
    }
    return count
  }
}
