/// Names a group of running effects within one store, so they can be cancelled together.
///
/// Any `Hashable & Sendable` value can serve as an id; ``Effect/cancellable(id:cancelInFlight:)``
/// and ``Effect/cancel(id:)`` wrap it for you. Ids are scoped to the store that runs the effect,
/// and a child reducer composed with ``Reducer/forEach(state:action:environment:element:)`` or
/// ``Reducer/ifLet(state:action:environment:then:)`` gets its own namespace, so two cards may each
/// use the id `"reminder"` without touching each other's effects.
public struct EffectID: Hashable, @unchecked Sendable, CustomStringConvertible {
  // Only ever built from `Hashable & Sendable` values, so the box is safe to send.
  let base: AnyHashable

  public init(_ base: some Hashable & Sendable) {
    if let id = base as? EffectID {
      self = id
    } else {
      self.base = AnyHashable(base)
    }
  }

  /// This id, placed inside the namespace of a child (for example one element of a collection).
  func namespaced(by namespace: EffectID) -> EffectID {
    EffectID(Namespaced(namespace: namespace, id: self))
  }

  public var description: String { String(describing: base) }
}

/// An id that lives inside a child's namespace.
struct Namespaced: Hashable, Sendable, CustomStringConvertible {
  let namespace: EffectID
  let id: EffectID
  var description: String { "\(namespace)/\(id)" }
}
