extension Effect {
  /// Marks this effect as cancellable by `id`.
  ///
  /// With `cancelInFlight`, starting this effect first cancels every running effect of the same
  /// id: the usual way to write "only the latest request counts".
  ///
  /// ```swift
  /// case let .searchChanged(query):
  ///   return .run { send in
  ///     await send(.results(try await environment.search(query)))
  ///   }
  ///   .cancellable(id: "search", cancelInFlight: true)
  /// ```
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
    switch operation {
    case .none, .refuse: return self
    default: return Effect(.cancellable(EffectID(id), cancelInFlight: cancelInFlight, self))
    }
  }

  /// Cancels every running effect marked with `id`. Actions they send afterwards are dropped.
  public static func cancel(id: some Hashable & Sendable) -> Effect {
    Effect(.cancel([EffectID(id)]))
  }

  /// Cancels every running effect marked with any of `ids`.
  public static func cancel(ids: some Sequence<some Hashable & Sendable>) -> Effect {
    let ids = ids.map { EffectID($0) }
    return ids.isEmpty ? .none : Effect(.cancel(ids))
  }
}

extension Effect {
  /// The ids of the `.cancellable` effects inside this one. A task that runs this effect as a
  /// whole (a queue slot, a concatenation) is registered under their ``EffectID/enclosing`` keys,
  /// so that cancelling any of them reaches the parts that have not started yet.
  var innerCancellableIDs: [EffectID] {
    switch operation {
    case .none, .send, .refuse, .run, .cancel:
      return []
    case let .merge(effects), let .concatenate(effects):
      return effects.flatMap(\.innerCancellableIDs)
    case let .cancellable(id, _, effect):
      return [id] + effect.innerCancellableIDs
    case let .queued(_, effect):
      return effect.innerCancellableIDs
    }
  }
}

extension Effect {
  /// The ids that starting this effect cancels at once, as ``EffectRuntime`` interprets it:
  /// `.cancel` (with their enclosing keys) and `cancelInFlight`; not those inside a
  /// concatenation or a queue, which act later, on their own task.
  func cancelledIDs(into ids: inout [EffectID]) {
    switch operation {
    case .none, .send, .refuse, .run, .concatenate, .queued:
      return
    case let .cancel(cancelled):
      ids += EffectID.cancelledBy(cancelled)
    case let .merge(effects):
      for effect in effects { effect.cancelledIDs(into: &ids) }
    case let .cancellable(id, cancelInFlight, effect):
      if cancelInFlight { ids.append(id) }
      effect.cancelledIDs(into: &ids)
    }
  }
}
