import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for `concordd` hosting one counter scope, written from the wire schema
/// (`schema/wire-protocol.schema.json`) with Foundation's JSON and nothing of ours: a window is
/// held to the contract, not to our encoder. It serves the home's
/// socket, each connection on a thread of its own, and keeps the rule the schema states: each `(client, cseq)` is applied once, and a
/// retry is answered with its first `ack`.
///
/// The counter's actions are `{"add":{"amount":N}}` and `{"double":{}}` (which adds the count).
final class ScriptedDaemon: Sendable {
  struct Model {
    var count: Int
    var seq: Int64
    var applied: [String: Int64] = [:]
    /// Every `send` read, retries included.
    var sends: [(client: String, cseq: Int64)] = []
  }

  let logID: String
  let model: Mutex<Model>
  private let listener: Int32
  private let path: String
  /// `pong`s written right after the welcome, before another line is read: a peer that talks
  /// and does not listen, so that both sockets fill.
  private let pongsAfterWelcome: Int

  /// Listens on `socket` with the counter at `count` and the log at `seq`.
  init(socket: URL, logID: String, count: Int, seq: Int64, pongsAfterWelcome: Int = 0) throws {
    self.logID = logID
    self.pongsAfterWelcome = pongsAfterWelcome
    path = socket.path
    model = Mutex(Model(count: count, seq: seq))
    unlink(path)
    listener = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, listen(listener, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
    let thread = Thread { [self] in serve() }
    thread.start()
  }

  /// Stops listening; a connection being served ends with it.
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    unlink(path)
  }

  private func serve() {
    while true {
      let peer = accept(listener, nil, nil)
      guard peer >= 0 else { return }
      Thread { [self] in
        talk(to: peer)
        close(peer)
      }.start()
    }
  }

  private func talk(to peer: Int32) {
    var pending = Data()
    var chunk = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = read(peer, &chunk, chunk.count)
      guard count > 0 else { return }
      pending.append(contentsOf: chunk[0..<count])
      while let newline = pending.firstIndex(of: 10) {
        let line = pending[pending.startIndex..<newline]
        pending = Data(pending[(newline + 1)...])
        guard let message = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { return }
        for answer in answers(to: message) { write(answer, to: peer) }
        if message["type"] as? String == "hello" {
          for _ in 0..<pongsAfterWelcome { write(["type": "pong"], to: peer) }
        }
      }
    }
  }

  private func answers(to message: [String: Any]) -> [[String: Any]] {
    model.withLock { model in
      switch message["type"] as? String {
      case "hello":
        return [[
          "type": "welcome", "protocol": 1, "log_id": logID, "user": "tester", "seq": model.seq, "app": "Counter",
          "scopes": [["name": "counter", "parameterized": false]],
        ]]
      case "attach":
        return [["type": "snapshot", "scope": "counter", "seq": model.seq, "state": ["count": model.count]]]
      case "send":
        let client = message["client"] as? String ?? ""
        let cseq = (message["cseq"] as? NSNumber)?.int64Value ?? -1
        model.sends.append((client, cseq))
        let key = "\(client)/\(cseq)"
        if let seq = model.applied[key] { return [["type": "ack", "client": client, "cseq": cseq, "seq": seq]] }
        let action = message["action"] as? [String: Any] ?? [:]
        if let add = action["add"] as? [String: Any], let amount = add["amount"] as? Int {
          model.count += amount
          model.seq += 1
          model.applied[key] = model.seq
        } else if action["double"] != nil {
          // Logged as two entries in one commit, as the daemon logs an action and what it fed
          // back: `double` itself, then the `add` of the count.
          model.seq += 1
          model.applied[key] = model.seq
          model.count += model.count
          model.seq += 1
        } else {
          return [["type": "error", "code": "bad-action", "message": "not a counter action", "cseq": cseq]]
        }
        // The commit's update (as of its last entry) first, then the answer.
        return [
          ["type": "update", "scope": "counter", "seq": model.seq, "reset": ["count": model.count]],
          ["type": "ack", "client": client, "cseq": cseq, "seq": model.applied[key]!],
        ]
      case "ping":
        return [["type": "pong"]]
      default:
        return []
      }
    }
  }

  private func write(_ message: [String: Any], to peer: Int32) {
    guard var line = try? JSONSerialization.data(withJSONObject: message) else { return }
    line.append(10)
    line.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = Glibc.send(peer, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        guard written > 0 else { return }
        offset += written
      }
    }
  }
}
