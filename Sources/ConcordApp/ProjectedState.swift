import ConcordWire
import Foundation

/// A scope's child state with its type erased: compared cheaply as the typed value, encoded to
/// JSON only when it changed.
///
/// The daemon projects every watched scope after every commit, and the line limit projects them
/// after every action, so a projection is one allocation: the typed state in a class whose
/// methods know its type (no existential box, no closure contexts, and a class cast rather than
/// a dynamic cast to compare).
///
/// ```swift
/// let before = ProjectedState(3), after = ProjectedState(4)
/// after.hasSameValue(as: before)    // false
/// try after.json().json             // .integer(4)
/// ```
package struct ProjectedState: Sendable {
  private let projection: AnyProjection

  package init<Child: Encodable & Equatable & Sendable>(_ child: Child) {
    projection = Projection(child)
  }

  package func hasSameValue(as other: ProjectedState?) -> Bool {
    other.map { projection.hasSameValue(as: $0.projection) } ?? false
  }

  /// The state as JSON, with the size of its text: what a whole-state `reset` would cost.
  /// `memo` keeps the JSON of its ``MemoizedEncodable`` elements from one encode to the next.
  package func json(memo: EncodeMemo? = nil) throws -> (json: JSONValue, bytes: Int) {
    let json = try projection.json(memo: memo)
    return (json, json.jsonTextByteCount)
  }

  /// True when a type holds no text, array or other storage of its own (numbers, booleans,
  /// dates, enums of them) and is small: its JSON is bounded by the type (a few dozen bytes a
  /// stored byte, names included), far below a line, whatever peers send.
  package static func isSmall<Child>(_ type: Child.Type) -> Bool {
    _isPOD(Child.self) && MemoryLayout<Child>.size <= smallLayoutBytes
  }

  /// The largest plain type whose JSON is small by type: even some 250 bytes of JSON a byte of
  /// layout (one-byte fields with long names) stays well under 1 MiB.
  package static let smallLayoutBytes = 1_024
}

/// What ``ProjectedState`` asks of the typed state it holds.
private class AnyProjection: @unchecked Sendable {
  // @unchecked: immutable; the subclass holds one Sendable value.
  func hasSameValue(as other: AnyProjection) -> Bool { fatalError("abstract") }
  func json(memo: EncodeMemo?) throws -> JSONValue { fatalError("abstract") }
}

private final class Projection<Child: Encodable & Equatable & Sendable>: AnyProjection, @unchecked Sendable {
  let child: Child

  init(_ child: Child) { self.child = child }

  override func hasSameValue(as other: AnyProjection) -> Bool {
    guard let other = other as? Projection<Child> else { return false }
    return other.child == child
  }

  override func json(memo: EncodeMemo?) throws -> JSONValue { try JSONValue(encoding: child, memo: memo) }
}
