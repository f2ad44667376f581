/// A few values kept without an array for none or one: the runtime's lists that are almost
/// always empty or hold one value (a reduction's tasks, the actions it feeds back) allocate
/// nothing in the common case.
@usableFromInline
enum OneOrMany<Element: Sendable>: Sendable {
  case none
  case one(Element)
  case many([Element])

  @inlinable
  var isEmpty: Bool {
    if case .none = self { return true }
    return false
  }

  @inlinable
  mutating func append(_ element: Element) {
    switch self {
    case .none: self = .one(element)
    case let .one(first): self = .many([first, element])
    case var .many(all):
      // Released before appending, so the array is unique and grows in place.
      self = .none
      all.append(element)
      self = .many(all)
    }
  }

  /// The values, in order, as an array (allocated only when asked for).
  @inlinable
  var all: [Element] {
    switch self {
    case .none: []
    case let .one(element): [element]
    case let .many(all): all
    }
  }

  @inlinable
  func forEach(_ body: (Element) throws -> Void) rethrows {
    switch self {
    case .none: break
    case let .one(element): try body(element)
    case let .many(all): try all.forEach(body)
    }
  }
}
