extension Effect {
  /// Turns an effect of child actions into an effect of parent actions: every action the effect
  /// sends passes through `transform`. Composition operators use this to lift a child's effects.
  public func map<ParentAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> ParentAction
  ) -> Effect<ParentAction> {
    switch operation {
    case .none:
      return .none
    case let .send(action):
      return .send(transform(action))
    case let .refuse(refusal):
      return .refuse(refusal)
    case let .run(priority, work, handler):
      let mappedWork: @Sendable (Send<ParentAction>) async throws -> Void = { send in
        try await work(send.map(transform))
      }
      var mappedHandler: Effect<ParentAction>.ErrorHandler?
      if let handler {
        mappedHandler = { error, send in await handler(error, send.map(transform)) }
      }
      return Effect<ParentAction>(.run(priority, mappedWork, mappedHandler))
    case let .merge(effects):
      return Effect<ParentAction>(.merge(effects.map { $0.map(transform) }))
    case let .concatenate(effects):
      return Effect<ParentAction>(.concatenate(effects.map { $0.map(transform) }))
    case let .cancellable(id, cancelInFlight, effect):
      return Effect<ParentAction>(
        .cancellable(id, cancelInFlight: cancelInFlight, effect.map(transform)))
    case let .cancel(ids):
      return Effect<ParentAction>(.cancel(ids))
    case let .queued(queue, effect):
      return Effect<ParentAction>(.queued(queue, effect.map(transform)))
    }
  }

  /// Moves every effect id and queue of this effect into `namespace`, and marks the whole effect
  /// as cancellable by the namespace itself. Child composition uses this so that a child's ids
  /// never collide with another child's, and so that removing a child cancels all its effects.
  @usableFromInline
  func namespaced(by namespace: EffectID) -> Effect {
    switch operation {
    case .none, .refuse, .send:
      return self
    default:
      return Effect(.cancellable(namespace, cancelInFlight: false, renamingIDs(into: namespace)))
    }
  }

  /// Moves every effect id and queue of this effect into `namespace`.
  @usableFromInline
  func renamingIDs(into namespace: EffectID) -> Effect {
    switch operation {
    case .none, .send, .refuse, .run:
      return self
    case let .merge(effects):
      return Effect(.merge(effects.map { $0.renamingIDs(into: namespace) }))
    case let .concatenate(effects):
      return Effect(.concatenate(effects.map { $0.renamingIDs(into: namespace) }))
    case let .cancellable(id, cancelInFlight, effect):
      return Effect(
        .cancellable(
          id.namespaced(by: namespace), cancelInFlight: cancelInFlight,
          effect.renamingIDs(into: namespace)))
    case let .cancel(ids):
      return Effect(.cancel(ids.map { $0.namespaced(by: namespace) }))
    case let .queued(queue, effect):
      return Effect(.queued(queue.namespaced(by: namespace), effect.renamingIDs(into: namespace)))
    }
  }
}
