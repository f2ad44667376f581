import ConcordWire
import Testing

@testable import ConcordServer

extension ConnectionQueue {
  /// Drains the outbox, as the window's socket would, until a message `isLast` accepts arrives;
  /// returns every message up to it (recording an issue if it never comes).
  func messages(until isLast: (ServerMessage) -> Bool) async throws -> [ServerMessage] {
    var seen: [ServerMessage] = []
    for _ in 0..<2000 {
      while let line = nextLine() {
        let message = try WireCoding().decode(ServerMessage.self, from: Array(line.utf8.dropLast()))
        seen.append(message)
        if isLast(message) { return seen }
      }
      try await Task.sleep(for: .milliseconds(5))
    }
    Issue.record("the awaited message never came; got \(seen)")
    return seen
  }

  /// Drains the outbox until the answer to `cseq` (an ack, a refusal or an error) arrives.
  func messages(untilAnswerTo cseq: Int64) async throws -> [ServerMessage] {
    try await messages {
      switch $0 {
      case .ack(_, cseq, _), .refused(_, cseq, _, _), .error(_, _, cseq): true
      default: false
      }
    }
  }
}
