import ConcordWire
import PropertyRandom

/// Random JSON documents, and random edits of them, for property tests.
///
/// Keys, ids and strings come from small pools so that two documents share structure (the
/// interesting case for a diff) and so that edits collide: a new key that already exists, an
/// inserted id that duplicates one, an element that loses its id.
struct RandomJSON {
  var random: PropertyRandom

  init(seed: UInt64) {
    random = PropertyRandom(seed: seed)
  }

  static let keys = ["a", "b", "c", "id", "title", "done", "x y", "é", "\"q\"", "", "0"]
  static let strings = ["", "a", "b", "To do", "é", "👩‍👩‍👧", "line\nbreak", "tab\t\\", "\u{01}", "\"", "/"]

  mutating func chance(_ percent: Int) -> Bool { random.chance(percent) }
  mutating func count(_ range: ClosedRange<Int>) -> Int { random.int(range) }

  /// A random document up to four levels deep.
  mutating func document() -> JSONValue { value(depth: count(0...4)) }

  mutating func value(depth: Int) -> JSONValue {
    guard depth > 0 else { return scalar() }
    switch count(0...9) {
    case 0...2: return scalar()
    case 3...4: return .array((0..<count(0...6)).map { _ in value(depth: depth - 1) })
    case 5...6: return .array(keyedElements(depth: depth))
    default: return object(depth: depth)
    }
  }

  mutating func scalar() -> JSONValue {
    switch count(0...9) {
    case 0: return .null
    case 1: return .bool(chance(50))
    case 2...4: return .number(Double(count(-100...100)))
    case 5: return .number(random.pick([0.5, -2.25, 1e-7, 1e20, 123_456_789.125, 0x1p60]))
    default: return .string(random.pick(Self.strings))
    }
  }

  mutating func object(depth: Int) -> JSONValue {
    var object: [String: JSONValue] = [:]
    for _ in 0..<count(0...5) {
      object[random.pick(Self.keys)] = value(depth: depth - 1)
    }
    return .object(object)
  }

  mutating func id() -> JSONValue {
    // Mostly strings, some numbers, and "1" next to 1 now and then: different ids.
    switch count(0...9) {
    case 0...5: .string("k\(count(0...15))")
    case 6...8: .number(Double(count(0...15)))
    default: .number(1.5)
    }
  }

  /// Elements of a keyed array: objects with unique ids.
  mutating func keyedElements(depth: Int) -> [JSONValue] {
    var seen = Set<JSONValue>()
    var elements: [JSONValue] = []
    for _ in 0..<count(0...8) {
      let id = id()
      guard seen.insert(id).inserted else { continue }
      elements.append(element(id: id, depth: depth))
    }
    return elements
  }

  mutating func element(id: JSONValue, depth: Int) -> JSONValue {
    guard case var .object(fields) = object(depth: depth) else { return .object(["id": id]) }
    fields["id"] = id
    return .object(fields)
  }

  /// `value` changed a little, or sometimes a lot: the next state after some action.
  mutating func edit(_ value: JSONValue, depth: Int = 4) -> JSONValue {
    if chance(8) { return self.value(depth: count(0...max(depth, 0))) }  // another kind, or anything
    switch value {
    case var .object(object):
      for key in object.keys.sorted() {
        if chance(15) {
          object[key] = nil
        } else if chance(40) {
          object[key] = edit(object[key]!, depth: depth - 1)
        }
      }
      if chance(30) { object[random.pick(Self.keys)] = self.value(depth: max(depth - 1, 0)) }
      return .object(object)
    case var .array(array):
      let keyed = !array.isEmpty && array.allSatisfy { ElementID(of: $0) != nil }
      array = array.compactMap { element in
        if chance(15) { return nil }
        return chance(35) ? (keyed ? editKeeping(id: element, depth: depth) : edit(element, depth: depth - 1)) : element
      }
      for _ in 0..<count(0...2) where chance(50) {
        let new = keyed ? element(id: id(), depth: max(depth - 1, 1)) : self.value(depth: max(depth - 1, 0))
        array.insert(new, at: count(0...array.count))
      }
      if chance(30) {
        array.shuffle(using: &random)
      } else if chance(30), array.count > 1 {
        array.insert(array.remove(at: count(0...array.count - 1)), at: count(0...array.count - 1))
      }
      return .array(array)
    default:
      return chance(50) ? value : scalar()
    }
  }

  /// An edit of a keyed element that keeps its id, mostly: now and then the id goes too.
  mutating func editKeeping(id element: JSONValue, depth: Int) -> JSONValue {
    guard case let .object(fields) = element, let id = fields["id"] else { return edit(element, depth: depth - 1) }
    guard case var .object(edited) = edit(.object(fields), depth: depth - 1) else { return element }
    if !chance(3) { edited["id"] = id }
    return .object(edited)
  }
}
