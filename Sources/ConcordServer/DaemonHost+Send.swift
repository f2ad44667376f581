import ConcordApp
import ConcordLog
import ConcordWire
import Foundation

/// A window's action on its way in: who may send it (client ids, by account), whether it is a
/// retry, whether it decodes and fits, and then its reduction
/// (``DaemonHost/reduceAndQueue(_:record:answering:)``).
extension DaemonHost {
  /// Takes `json` as an action of the scope `scopeName`, sent by `connection` as `(client, cseq)`;
  /// answers it at once when it cannot be taken, else when its commit is durable. The app sees
  /// the action at `typedAt` (when it waited offline), or now; never later than now.
  func send(_ json: JSONValue, scope scopeName: String, client: String, cseq: Int64, typedAt: Date? = nil, connection: Connection) {
    guard lifecycle.takesConnectionActions else {
      return connection.send(.error(code: .unavailable, message: "the daemon is stopping", cseq: cseq))
    }
    if let problem = ClientID.problem(with: client) {
      return connection.send(.error(code: .badMessage, message: problem, cseq: cseq))
    }
    guard client != Self.daemonClient else {
      return connection.send(.error(code: .badMessage, message: "the client id \"\(client)\" is reserved", cseq: cseq))
    }
    // Exactly once is per account: a client id belongs to the account that first sent with it,
    // so nobody else can be answered for its actions or make its later ones look recorded.
    let known: KnownClient?
    do {
      known = try knownClient(client)
    } catch {
      return connection.send(.error(code: .unavailable, message: "the log could not be read: \(error)", cseq: cseq))
    }
    if let owner = known?.owner, owner != connection.user {
      return connection.send(
        .error(
          code: .badMessage,
          message: "the client id \(client) belongs to another account; each account's windows use their own", cseq: cseq))
    }
    // A retry gets the original answer whatever became of its scope: the element it was sent to
    // may be gone by now (the scope names nothing, so the window could not attach it again).
    let key = ActionKey(client: client, cseq: cseq)
    if answerSlots[key] != nil {
      // A retry of an action still on its way to the log: answered with it.
      answerSlots[key, default: []].append(AnswerSlot(connection))
      return
    }
    if let known, cseq <= known.highestCseq {
      do {
        if let original = try log.entry(client: client, cseq: cseq) {
          return connection.send(Self.answer(for: original))
        }
      } catch {
        return connection.send(.error(code: .unavailable, message: "the log could not be read: \(error)", cseq: cseq))
      }
    }
    guard let instance = instances[scopeName], instance.connections.contains(connection) else {
      return connection.send(
        .error(code: .notAttached, message: "attach to \(scopeName) before sending its actions", cseq: cseq))
    }
    let action: Action
    // The entry is logged now, its times never going back; the app sees when the person typed
    // it, which the window claims for an action that waited offline (never after now).
    let now = actionTime()
    let origin = ActionOrigin(user: connection.user, window: connection.id, at: typedAt.map { min(JSONDate.rounded($0), now) } ?? now)
    do {
      action = try instance.scope.embed(instance.key.parameter, json, origin)
    } catch {
      return connection.send(
        .error(code: .badAction, message: "not an action of \(scopeName): \(WireCoding.describe(error))", cseq: cseq))
    }
    guard
      let record = makeRecord(action, client: client, cseq: cseq, user: connection.user, scope: scopeName, at: now)
    else {
      return connection.send(.error(code: .badAction, message: "the action could not be recorded", cseq: cseq))
    }
    // A line is at most 1 MiB, but its text in NFC may be longer (some characters decompose and
    // compose into more bytes): what one line puts in the log stays within a line.
    guard record.action.utf8.count <= WireLimits.maximumMessageBytes else {
      return connection.send(
        .error(
          code: .badAction,
          message: "the action is \(record.action.utf8.count.grouped) bytes as it would be logged, more than a line (\(WireLimits.maximumMessageBytes.grouped))",
          cseq: cseq))
    }
    clients[client] = KnownClient(highestCseq: max(known?.highestCseq ?? cseq, cseq), owner: connection.user)
    reduceAndQueue(action, record: record, answering: connection)
  }

  /// What the host knows of `client`, with its owner: the user of its first action, looked up in
  /// the log the first time it is needed this run; nil for a client the log has never seen.
  private func knownClient(_ client: String) throws(LogError) -> KnownClient? {
    guard var known = clients[client] else { return nil }
    if known.owner == nil {
      known.owner = try log.firstEntry(client: client)?.record.user
      clients[client] = known
    }
    return known
  }
}
