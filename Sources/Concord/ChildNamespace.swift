/// The effect namespace of one child of a composed reducer: where it sits in the parent (the key
/// path), and which element it is when it lives in a collection.
///
/// Composition wraps every effect of a child in its namespace, so the child's effect ids never
/// collide with a sibling's, and so the parent can cancel all of a child's effects at once when
/// the child goes away.
@usableFromInline
struct ChildNamespace: Hashable, @unchecked Sendable, CustomStringConvertible {
  // Key paths are immutable values; the element id is only ever built from a Sendable id.
  let location: AnyKeyPath
  let element: AnyHashable?

  @usableFromInline
  init(_ location: AnyKeyPath, element: AnyHashable? = nil) {
    self.location = location
    self.element = element
  }

  @usableFromInline
  var id: EffectID { EffectID(self) }

  @usableFromInline
  var description: String {
    element.map { "\(location)[\($0)]" } ?? "\(location)"
  }
}
