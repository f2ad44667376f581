import CasePaths
import IdentifiedCollections
import OrderedCollections

extension Reducer {
  /// Runs `element` on one element of the identified collection at `toElements` whenever an
  /// ``IdentifiedAction`` for it arrives, before this (the parent's) reducer runs.
  ///
  /// - An action for an id that is not in the collection is refused.
  /// - When the parent removes an element, every effect that element started is cancelled.
  /// - Each element's effect ids live in the element's own namespace: two cards may both use
  ///   `.cancellable(id: "reminder")`.
  ///
  /// ```swift
  /// let board = boardCore.forEach(
  ///   state: \.cards, action: \.cards, environment: { $0.card }, element: card
  /// )
  /// ```
  @inlinable
  public func forEach<ID: Hashable & Sendable, Element, ElementAction: Sendable, ElementEnvironment>(
    state toElements: WritableKeyPath<State, IdentifiedArray<ID, Element>>,
    action toElementAction: KeyPath<
      Action.AllCasePaths, AnyCasePath<Action, IdentifiedAction<ID, ElementAction>>
    >,
    environment toElementEnvironment: @escaping @Sendable (Environment) -> ElementEnvironment,
    element: Reducer<Element, ElementAction, ElementEnvironment>
  ) -> Reducer where Action: CasePathable {
    nonisolated(unsafe) let toElements = toElements
    let toElementAction = Action.allCasePaths[keyPath: toElementAction]
    let parent = self.run
    let childName = String(describing: Element.self)
    @Sendable func namespace(_ id: ID) -> EffectID {
      ChildNamespace(toElements, element: AnyHashable(id)).id
    }
    return Reducer { state, action, environment in
      var elementEffect = Effect<Action>.none
      if case let .element(id, elementAction)? = toElementAction.extract(from: action) {
        guard state[keyPath: toElements][id: id] != nil else {
          return .refuse(Refusal("There is no \(childName) with id \(id)"))
        }
        let effect = element.run(
          &state[keyPath: toElements][id: id]!, elementAction, toElementEnvironment(environment))
        let embed: @Sendable (ElementAction) -> Action = {
          toElementAction.embed(.element(id: id, action: $0))
        }
        if effect.refusal != nil { return effect.map(embed) }
        elementEffect = effect.map(embed).namespaced(by: namespace(id))
      }
      let idsBefore = state[keyPath: toElements].ids
      let parentEffect = parent(&state, action, environment)
      if parentEffect.refusal != nil { return parentEffect }
      let idsAfter = state[keyPath: toElements].ids
      var removals = Effect<Action>.none
      if idsBefore != idsAfter {
        let removed = idsBefore.subtracting(idsAfter)
        if !removed.isEmpty {
          removals = .cancel(ids: removed.map(namespace))
        }
      }
      return .merge(elementEffect, parentEffect, removals)
    }
  }
}
