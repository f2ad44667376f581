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

  /// Wraps `base` as an id; an `EffectID` passed in is kept as it is, not wrapped twice.
  ///
  /// - Parameter base: any value that names the group, such as a string or an enum case.
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

  /// The id under which a task that *contains* effects of this id is registered (a queue slot, a
  /// concatenation). `.cancel(id:)` reaches it; `cancelInFlight` does not, so an effect starting
  /// inside such a task never cancels the task that starts it.
  var enclosing: EffectID { EffectID(Enclosing(id: self)) }

  /// The keys `.cancel(id:)` of `ids` cancels: each id, and what encloses one (so a queued or
  /// concatenated effect stops before its part of that id has started).
  static func cancelledBy(_ ids: [EffectID]) -> [EffectID] { ids + ids.map(\.enclosing) }

  public var description: String { String(describing: base) }
}

/// The registration key of a task that contains effects of `id`.
struct Enclosing: Hashable, Sendable {
  let id: EffectID
}

/// An id that lives inside a child's namespace.
struct Namespaced: Hashable, Sendable, CustomStringConvertible {
  let namespace: EffectID
  let id: EffectID
  var description: String { "\(namespace)/\(id)" }
}
