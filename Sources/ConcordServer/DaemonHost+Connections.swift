import ConcordApp
import Concord
import ConcordLog
import ConcordWire
import Foundation

/// What windows ask of the host: attach, detach, send.
extension DaemonHost {
  func welcome(for connection: Connection) -> ServerMessage.Welcome {
    connections.insert(connection)
    return ServerMessage.Welcome(
      protocolVersion: WireProtocol.version, logID: logID, user: connection.user, seq: committedSeq,
      app: app.name, scopes: app.scopes.map { .init(name: $0.name, parameterized: $0.isParameterized, usage: $0.usage) })
  }

  func handle(_ message: ClientMessage, from connection: Connection) {
    switch message {
    case .hello:
      connection.send(.error(code: .handshake, message: "hello was already said", cseq: nil))
    case let .attach(scope, since):
      attach(scope, since: since, connection: connection)
    case let .detach(scope):
      detach(scope, connection: connection, answer: true)
    case let .send(scope, action, client, cseq, typedAt):
      send(action, scope: scope, client: client, cseq: cseq, typedAt: typedAt, connection: connection)
    case .ping:
      connection.send(.pong)
    case .pong:
      break
    case .status:
      connection.send(.status(status()))
    }
  }

  /// What `concord daemon status` shows. `windows` is what the schema says it is: every
  /// connection that has said hello, the one asking included.
  func status() -> ServerMessage.DaemonStatus {
    ServerMessage.DaemonStatus(
      pid: getpid(), startedAt: startedAt.timeIntervalSince1970, seq: committedSeq,
      windows: connections.count,
      scopes: instances.mapValues(\.connections.count).filter { $0.value > 0 })
  }

  func disconnected(_ connection: Connection) {
    guard connections.remove(connection) != nil else { return }
    for (scope, instance) in instances where instance.connections.contains(connection) {
      detach(scope, connection: connection, answer: false)
    }
  }

  private func attach(_ text: String, since: LogPosition?, connection: Connection) {
    let key = ScopeKey(text)
    let scope: AppScope<State, Action>
    switch app.scope(for: key) {
    case let .success(found): scope = found
    case let .failure(error): return connection.send(.error(code: .unknownScope, message: error.description, cseq: nil))
    }
    let scopeName = key.description
    // A scope already watched has its state encoded; only a new one is projected and encoded.
    guard var instance = instances[scopeName] ?? startedInstance(scopeName, key: key, scope: scope, resuming: since != nil) else {
      return connection.send(.error(code: .unknownScope, message: "\(key) names nothing in the state", cseq: nil))
    }
    let limit = WireLimits.maximumStateBytes(scope: scopeName)
    guard instance.published.bytes <= limit else {
      return connection.send(
        .error(
          code: .unknownScope,
          message: "\(scopeName) cannot be shown: its state is \(instance.published.bytes.grouped) bytes, more than one line can carry (\(limit.grouped))",
          cseq: nil))
    }
    let isNew = instance.connections.insert(connection).inserted
    instances[scopeName] = instance
    connection.queue.attach(scopeName, first: firstLine(for: instance, since: since), state: instance.published)
    if isNew { tellApp(app.lifecycle.windowAttached, connection, scopeName) }
  }

  /// The instance of a scope nobody watches yet: woken from rest, or made now. When its
  /// parameter names nothing in the state: nil for a window asking afresh (a name mistyped); for
  /// a window coming back to a scope it had (`resuming`), the scope's state is null, as a window
  /// watching it is sent when it goes (a column renamed), and the window stays attached.
  private func startedInstance(_ name: String, key: ScopeKey, scope: AppScope<State, Action>, resuming: Bool) -> ScopeInstance? {
    let projected = scope.project(committedState, key.parameter)
    guard projected != nil || resuming else { return nil }
    let (json, bytes) = encodedState(projected, of: name)
    let published = PublishedState(scope: name, seq: committedSeq, state: json, bytes: bytes, previousSeq: nil)
    if var instance = resting.removeValue(forKey: name)?.instance {
      restingOrder.removeAll { $0 == name }
      instance.history.resume(after: instance.published.seq, at: committedSeq, state: json)
      instance.last = projected
      instance.published = published
      return instance
    }
    return ScopeInstance(
      key: key, scope: scope, last: projected, published: published,
      history: ScopeHistory(seq: committedSeq, state: json), connections: [])
  }

  /// A snapshot; or, for a window that says which state it has (`since`, in this log), the
  /// changes since then. The snapshot's line is made once per published state and shared: after
  /// a restart every window reconnects at once.
  private func firstLine(for instance: ScopeInstance, since: LogPosition?) -> String {
    let current = instance.published
    guard let since else { return current.snapshotLine() }
    guard since.logID == logID else { return current.snapshotLine(logReplaced: true) }
    guard since.seq <= committedSeq, let old = instance.history.state(at: since.seq) else { return current.snapshotLine() }
    return PublishedState.updateLine(from: old, to: current)
      ?? ServerMessage.update(scope: current.scope, seq: current.seq, change: .diff(StateDiff())).line
  }

  private func detach(_ scopeName: String, connection: Connection, answer: Bool) {
    let wasAttached = instances[scopeName]?.connections.remove(connection) != nil
    if let instance = instances[scopeName], instance.connections.isEmpty {
      instances[scopeName] = nil
      // Nobody watches it: its size is no longer measured (a plain scope's always is).
      if instance.key.parameter != nil {
        fittingStates[scopeName] = nil
        encodeMemos[scopeName] = nil
      }
      rest(instance, as: scopeName)
    }
    connection.queue.detach(scopeName)
    if answer { connection.send(.detached(scope: scopeName)) }
    if wasAttached { tellApp(app.lifecycle.windowDetached, connection, scopeName) }
  }

  private func rest(_ instance: ScopeInstance, as name: String) {
    resting[name] = (instance, committedSeq)
    restingOrder.append(name)
    if restingOrder.count > Self.restingLimit { resting[restingOrder.removeFirst()] = nil }
  }

  /// Sends the app its lifecycle action for a window event, logged at the event's time.
  private func tellApp(_ lifecycle: (@Sendable (WindowEvent) -> Action?)?, _ connection: Connection, _ scope: String) {
    guard connection.announcesPresence, let lifecycle else { return }
    let event = WindowEvent(user: connection.user, scope: scope, window: connection.id, at: actionTime())
    guard let action = lifecycle(event) else { return }
    reduceAndQueueOwn(action, user: connection.user, scope: scope, at: event.at)
  }

  /// A scope's state as JSON: null when its parameter names nothing (an element that is gone,
  /// which a window shows rather than keep a stale view); null too, with an error in the daemon's
  /// log (once, until the state can be encoded again), when the app's state cannot be encoded (a
  /// Double that is not finite, say). Attaching and publishing treat it alike, so every window of
  /// the scope shows the same thing.
  private func encodedState(_ projected: ProjectedState?, of name: String) -> (json: JSONValue, bytes: Int) {
    guard let projected else { return Self.null }
    do {
      // The JSON the line limit measured, when the state is still that one: not encoded twice.
      let encoded =
        if let fitting = fittingStates[name], projected.hasSameValue(as: fitting.projected) {
          fitting.encoded
        } else {
          try projected.json(memo: encodeMemo(for: name))
        }
      if !scopesShowingNull.isEmpty, scopesShowingNull.remove(name) != nil {
        logger.notice("the state of \(name) can be encoded again")
      }
      return encoded
    } catch {
      if scopesShowingNull.insert(name).inserted {
        logger.error("the state of \(name) could not be encoded, so its windows show null until it can be: \(error)")
      }
      return Self.null
    }
  }

  /// `null`, and its length.
  private static var null: (json: JSONValue, bytes: Int) { (.null, 4) }

  /// Sends every window whose scope's projected state changed its new state.
  func publishChanges() {
    // Written back after the loop, in place: writing into `instances` while iterating it would
    // copy it, and a changed copy of an instance would copy its history.
    var changes: [(name: String, projected: ProjectedState?, published: PublishedState)] = []
    for (name, instance) in instances where !instance.connections.isEmpty {
      let projected = instance.scope.project(committedState, instance.key.parameter)
      if let projected, projected.hasSameValue(as: instance.last) { continue }
      if projected == nil, instance.last == nil { continue }
      let (json, bytes) = encodedState(projected, of: name)
      let published = PublishedState(
        scope: name, seq: committedSeq, state: json, bytes: bytes, previousSeq: instance.published.seq)
      changes.append((name, projected, published))
      for connection in instance.connections { connection.queue.scopeChanged(published) }
    }
    for change in changes {
      instances[change.name]?.publish(change.published, projectedFrom: change.projected)
    }
  }
}
