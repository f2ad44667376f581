/// An action for one element of an identified collection: which element, and what to do.
///
/// Use it as the payload of a parent action case that ``Reducer/forEach(state:action:environment:element:)``
/// routes to the element's reducer.
///
/// ```swift
/// @CasePathable enum BoardAction {
///   case cards(IdentifiedAction<Card.ID, CardAction>)
/// }
/// store.send(.cards(.element(id: 42, action: .rename("Fix login"))))
/// ```
public enum IdentifiedAction<ID: Hashable & Sendable, Action: Sendable>: Sendable {
  /// `action`, for the element whose id is `id`.
  case element(id: ID, action: Action)

  /// The element this action is for.
  public var id: ID {
    switch self { case let .element(id, _): return id }
  }

  /// What to do with the element.
  public var action: Action {
    switch self { case let .element(_, action): return action }
  }
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Codable where ID: Codable, Action: Codable {}
